/**
 * npm run lint:nodes [-- --dir DIR] [--format json] [--no-cache]
 * One line per problem, `file:line:col severity rule-id message`; exit 1 on any error.
 *
 * Run from its bundle (scripts/cli.mjs), the result is kept in .cli/ with
 * what it was computed from: every file of the nodes folder (path, size,
 * change time) and the bundle's build (any change to the lint's code makes
 * a new one). An unchanged catalogue is answered from it, like `eslint
 * --cache`; --no-cache lints anyway.
 */
import { lintNodesCommand } from "./lint-nodes-command";

lintNodesCommand(process.argv.slice(2)).then((code) => process.exit(code));
