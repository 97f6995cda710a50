import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { writeFixtureTree } from "../../../testing/manifest/import-tree.fixture";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { lintNodes } from "..";
import { importPackages, kebabName, renameRoots } from ".";

/**
 * FIXTURES written here in the shape of Unoverse packages (node.yaml,
 * package.yaml, credentials/, shared/): two packages that both have a
 * shared/table.yaml, a step that pages with a cursor and reads `signal`,
 * a router of events alone, and a node that needs a WebSocket.
 */
const root = await mkdtemp(path.join(os.tmpdir(), "sb-import-test-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const tree = (files: Record<string, string>) => writeFixtureTree(root, files);

await tree({
  "market/definitions/nodes/tables/package.yaml": "$schema: ../_schema/package.schema.json\nname: tables\ndisplayName: Tables\nallowedHosts: [api.tables.example]\n",
  "market/definitions/nodes/tables/credentials/tablesKey.yaml": "name: tablesKey\ndisplayName: Tables key\ndescription: A personal token\nproperties:\n  - name: token\n    secret: true\n  - name: host\n    secret: false\n    default: api.tables.example\n",
  "market/definitions/nodes/tables/shared/table.yaml": "credential: &credential\n  scheme: bearer\n  token: \"{{ credentials.tablesKey.token }}\"\n",
  "market/definitions/nodes/tables/TableFetch/node.yaml": "$schema: ../../../_schema/node.schema.json\ntype: TableFetch\nkind: PromiseNode\nname: Table Fetch\ncategory: Storage & Data\ncolor: \"#fff\"\ndescription: Reads rows\nwhenToUse: Pick to read rows.\nauth: { required: false }\n",
  "market/definitions/nodes/tables/TableFetch/interface.yaml": "$schema: x\ninputs:\n  - name: signal\n    type: object\noutputs:\n  - name: rows\n    type: array\ncredentials:\n  - name: tablesKey\n    required: true\n    displayName: Tables\n",
  "market/definitions/nodes/tables/TableFetch/config.yaml": "$schema: x\nconfigSchema:\n  type: object\n  properties:\n    table:\n      type: string\n      default: \"\"\n      \"ui:field\": template\n    limit:\n      type: number\n      default: 10\n      step: 1\n      placeholder: How many\n    authRequired:\n      type: boolean\n      default: false\n      \"ui:widget\": toggle\n\"ui:order\": [authRequired, table, limit]\n",
  "market/definitions/nodes/tables/TableFetch/api/run.yaml": "- name: page\n  url: \"return 'https://' + (credentials.tablesKey.host || 'api.tables.example') + '/v1/' + encodeURIComponent(config.table || signal.table)\"\n  credential: { $ref: table#credential }\n  paginate:\n    strategy: cursor\n    cursor: \"return response.next\"\n    into: cursor\n    items: \"return response.rows\"\n",
  "market/definitions/nodes/tables/TableFetch/api/events.yaml": "- emit: rows\n  value: \"return response.items\"\n",
  "market/definitions/nodes/tables/TableFetch/test.yaml": "testData:\n  config: { table: people }\n  expect:\n    rows: \"return Array.isArray(output.rows)\"\n",
  "market/definitions/nodes/tables/Talk/node.yaml": "type: Talk\nkind: CallbackNode\nname: Talk\ncategory: Voice\ndescription: Talks\n",
  "market/definitions/nodes/tables/Talk/interface.yaml": "outputs: []\n",
  "market/definitions/nodes/tables/Talk/api/run.yaml": "- name: open\n  url: wss://voice.example/\n  transport: ws\n",
  "market/definitions/nodes/routing/package.yaml": "name: routing\n",
  "market/definitions/nodes/routing/shared/table.yaml": "other: 1\n",
  "market/definitions/nodes/routing/Branch/node.yaml": "type: Branch\nkind: PromiseNode\nname: Branch\ncategory: Flow\ndescription: Routes a payload\n",
  "market/definitions/nodes/routing/Branch/interface.yaml": "inputs:\n  - name: signal\n    type: object\noutputs:\n  - name: \"true\"\n    type: object\n  - name: \"false\"\n    type: object\n",
  "market/definitions/nodes/routing/Branch/config.yaml": "configSchema:\n  type: object\n  properties:\n    condition: { type: boolean, default: false }\n",
  "market/definitions/nodes/routing/Branch/api/events.yaml": "- emit: \"true\"\n  when: \"return !!config.condition\"\n  value: \"return response.signal\"\n- emit: \"false\"\n  when: \"return !config.condition\"\n  value: \"return response.signal\"\n",
  "market/definitions/nodes/routing/Branch/test.yaml": "testData:\n  config: { condition: true }\n  inputs: { signal: { a: 1 } }\n  expect:\n    routed: \"return output.true.a === 1 && output.false === undefined\"\n",
});

describe("npm run nodes -- import", () => {
  it("imports a marketplace-shaped checkout: clean nodes lint clean, the rest name one missing feature", async () => {
    const into = path.join(root, "out");
    const report = await importPackages(path.join(root, "market"), { into });
    const bySource = new Map(report.nodes.map((node) => [node.source, node]));
    expect(bySource.get("tables/Talk")).toMatchObject({ status: "not-importable", reason: "WebSocket transport (transport: ws)" });
    expect(bySource.get("tables/TableFetch")).toMatchObject({ status: "changed", name: "table-fetch", lint: { errors: 0 } });
    expect(bySource.get("routing/Branch")).toMatchObject({ name: "branch", lint: { errors: 0 } });
    expect(report).toMatchObject({ clean: 2, notImportable: 1, lintFailed: 0 });
    const linted = await lintNodes(into);
    expect(linted.problems.filter((problem) => problem.severity === "error")).toEqual([]);
  });

  it("merges identity into interface.yaml, resolves the credential with its origins, namespaces shared/, renames signal, moves a host setting to config", async () => {
    const into = path.join(root, "out2");
    await importPackages(path.join(root, "market"), { into });
    const read = async (file: string) => parse(await readFile(path.join(into, file), "utf8")) as Record<string, any>;
    const face = await read("table-fetch/interface.yaml");
    expect(face).toMatchObject({ name: "table-fetch", title: "Table Fetch", kind: "PromiseNode", category: "Storage & Data", whenToUse: "Pick to read rows." });
    expect(face.credentials).toEqual([{ name: "tablesKey", displayName: "Tables", required: true, fields: ["token", "host"], description: "A personal token", origins: ["https://api.tables.example"] }]);
    expect(face.source.from).toContain("tables/TableFetch");
    const [page] = (await read("table-fetch/api/run.yaml")) as unknown as Array<Record<string, any>>;
    expect(page.url).toBe("return 'https://' + config.host + '/v1/' + encodeURIComponent(config.table || inputs.signal.table)");
    expect(page.credential).toEqual({ $ref: "tables/table#credential" });
    const config = await read("table-fetch/config.yaml");
    expect(Object.keys(config.configSchema.properties)).toEqual(["table", "limit", "host"]);
    expect(config.configSchema.properties.limit).toMatchObject({ step: 1, "ui:placeholder": "How many" });
    expect(config["ui:order"]).toEqual(["table", "limit", "host"]);
    expect((await read("test.yaml".replace(/^/, "table-fetch/"))).testData.live).toBe(true);
    // Two packages' shared/table.yaml do not collide.
    expect(await read("shared/tables/table.yaml")).toHaveProperty("credential");
    expect(await read("shared/routing/table.yaml")).toEqual({ other: 1 });
  });

  it("--dry-run writes nothing and reports the same", async () => {
    const into = path.join(root, "dry");
    const report = await importPackages(path.join(root, "market"), { into, dryRun: true });
    expect(report.clean).toBe(2);
    await expect(readFile(path.join(into, "branch", "interface.yaml"), "utf8")).rejects.toThrow();
  });

  it("a regional host gets the origin its default region gives; wildcard allowedHosts are not credential origins", async () => {
    await tree({
      "regional/definitions/nodes/vault/package.yaml": "name: vault\nallowedHosts: [\"**.vault.example\", \"*\", api.vault.example]\n",
      "regional/definitions/nodes/vault/credentials/vaultKey.yaml": "name: vaultKey\nproperties:\n  - name: key\n    secret: true\n  - name: region\n    secret: false\n    default: eu-1\n",
      "regional/definitions/nodes/vault/Fetch/node.yaml": "type: Fetch\nkind: PromiseNode\nname: Vault Fetch\ncategory: Data\ndescription: Reads a secret's metadata\n",
      "regional/definitions/nodes/vault/Fetch/interface.yaml": "outputs:\n  - name: meta\n    type: object\ncredentials:\n  - name: vaultKey\n    displayName: Vault\n",
      "regional/definitions/nodes/vault/Fetch/api/run.yaml": "- name: meta\n  url: \"return 'https://api.' + (credentials.vaultKey.region || 'eu-1') + '.vault.example/meta'\"\n  credential: { scheme: bearer, token: \"{{ credentials.vaultKey.key }}\" }\n",
      "regional/definitions/nodes/vault/Fetch/api/events.yaml": "- emit: meta\n",
    });
    const into = path.join(root, "regional-out");
    const report = await importPackages(path.join(root, "regional"), { into });
    expect(report.nodes[0]).toMatchObject({ name: "fetch", lint: { errors: 0 } });
    const face = parse(await readFile(path.join(into, "fetch/interface.yaml"), "utf8")) as Record<string, any>;
    expect(face.credentials[0].origins).toEqual(["https://api.eu-1.vault.example", "https://api.vault.example"]);
    expect(face.source.notes).toContain("allowedHosts wildcards not carried as credential origins: **.vault.example, * (a credential is bound to exact origins; add others on the Credentials page)");
  });

  it("one package or one node can be imported alone", async () => {
    const one = await importPackages(path.join(root, "market/definitions/nodes/routing/Branch"), { into: path.join(root, "one") });
    expect(one.nodes.map((node) => node.name)).toEqual(["branch"]);
  });
});

describe("import helpers", () => {
  it("names: Unoverse types become valid folder names", () => {
    expect(["AirtableFetch", "OpenAIAgent", "S3Files", "IfElse"].map(kebabName)).toEqual(["airtable-fetch", "open-ai-agent", "s3-files", "if-else"]);
  });
  it("renameRoots renames free roots only, in templates and expressions", () => {
    expect(renameRoots("{{ signal.a }}", { signal: "inputs.signal" })).toBe("{{ inputs.signal.a }}");
    expect(renameRoots("return signal.a + x.signal + [1].map(signal => signal)[0]", { signal: "inputs.in" })).toBe("return signal.a + x.signal + [1].map(signal => signal)[0]");
    expect(renameRoots("return signal.a + x.signal", { signal: "inputs.in" })).toBe("return inputs.in.a + x.signal");
  });
});
