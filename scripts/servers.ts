/**
 * The MCP server registry on the command line, with the same checks as /servers.
 *
 *   npm run servers -- add FILE.json      register or replace a server (exit 1 with the reason when refused)
 *   npm run servers -- list               every server; refused ones with their error
 *   npm run servers -- test ID            connect, list the tools, close
 *   npm run servers -- tools ID           the server's tools and their input schemas
 *   npm run servers -- remove ID
 *   npm run servers -- catalogue         the stdio catalogue: the programs a stdio server may be, their parameters and variables
 *
 * --json prints machine output (use `npm run -s` so npm prints no banner).
 * FILE.json is an entry: a stdio server is an entry of the stdio catalogue
 * with its declared parameters and variables ({ id, name, "transport": "stdio",
 * "catalogue": "filesystem", "parameters": { "root": "/srv/docs" }, "env": { … } }),
 * a remote one { id, name, transport, url, headers, … }; an optional
 * "secretValues": { "NAME": "value" } sets its secrets.
 * Exit codes: 0 done, 1 refused or failed, 2 usage. Never a stack trace
 * (SWITCHBOARD_DEBUG=1 shows one for an internal error).
 */
import { serversCommand } from "./servers-command";

serversCommand(process.argv.slice(2)).then((code) => process.exit(code));
