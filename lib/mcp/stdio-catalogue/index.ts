// The stdio catalogue: the administrator's list of the only programs a stdio
// MCP server may be (exact executables, argument templates, declared
// parameters and environment variables, optional confinement). Not
// server-only: the CLI uses it.

export { catalogueFileSchema, type CatalogueFile, type CatalogueEntrySpec, type Confinement, type EnvironmentSpec, type ParameterSpec } from "./catalogue-file";
export { catalogueFileName, catalogueLocation, catalogueVariable, readStdioCatalogue, stdioCatalogueFromEnvironment, stdioCatalogueFromText, type CatalogueEntry, type StdioCatalogue } from "./read-catalogue";
export { environmentProblem, matchCatalogue, renderArguments, type CatalogueMatch, type FieldProblem, type ParameterValues, type StoredCommandLine } from "./catalogue-match";
export { parameterProblem } from "./catalogue-parameters";
export { CataloguedCommand, ConfinementUnavailableError, cataloguedCommand, findBubblewrap, isCatalogued, launchOf, type CataloguedVerdict, type Launch } from "./catalogued-command";
export { refusedEnvironmentName } from "./refused-environment";
