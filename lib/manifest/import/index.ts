export { importPackages, formatImportReport, type ImportReport, type ImportedNode } from "./import-packages";
export { translateNode, kebabName, type TranslatedNode } from "./translate-node";
export { readUnoverseTree, ImportInputError, type UnoversePackage } from "./unoverse-tree";
export { renameRoots } from "./rename-roots";
