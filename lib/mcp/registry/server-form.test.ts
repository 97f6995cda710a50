import { describe, expect, it } from "vitest";
import { parseServerEntry } from "./validate-entry";
import { entryFromForm, formFromEntry } from "./server-form";

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) data.append(name, item);
  return data;
}

describe("the server form", () => {
  it("reads a stdio server as a catalogue entry with its parameters and variables, never a command line, and leaves empty numbers to the defaults", () => {
    const parsed = entryFromForm(
      form({
        serverId: " everything ",
        serverName: "Everything",
        transport: "stdio",
        catalogue: "filesystem",
        "parameter.root": " /srv/docs ",
        "parameter.empty": "",
        "env.API_TOKEN": "{{ secrets.TOKEN }}",
        "env.MODE": "a=b",
        command: "bash",
        args: "-c\nid",
        url: "ignored for stdio",
        timeoutMs: "",
        maxRetries: "3",
        enabled: "on",
        secretName: ["TOKEN", ""],
        secretValue: ["s3cret", ""],
      }),
    );
    expect(parsed).toEqual({
      ok: true,
      input: {
        id: "everything",
        name: "Everything",
        transport: "stdio",
        catalogue: "filesystem",
        parameters: { root: "/srv/docs" },
        env: { API_TOKEN: "{{ secrets.TOKEN }}", MODE: "a=b" },
        maxRetries: 3,
        enabled: true,
        secrets: ["TOKEN"],
      },
      secretValues: { TOKEN: "s3cret" },
    });
  });

  it("names the field of a malformed line", () => {
    expect(entryFromForm(form({ transport: "http", headers: "Authorization Bearer x" }))).toMatchObject({ ok: false, problem: { field: "headers" } });
    expect(entryFromForm(form({ transport: "http", timeoutMs: "ten" }))).toEqual({ ok: false, problem: { field: "timeoutMs", message: "write a whole number" } });
    expect(entryFromForm(form({ transport: "http", secretName: [""], secretValue: ["x"] }))).toMatchObject({ ok: false, problem: { field: "secrets" } });
  });

  it("shows an entry as the form edits it, and reads it back to the same entry", () => {
    const verdict = parseServerEntry({
      id: "github",
      name: "GitHub",
      transport: "sse",
      url: "https://93.184.215.14/sse",
      headers: { Authorization: "Bearer {{ secrets.TOKEN }}" },
      secrets: ["TOKEN"],
      toolTimeoutMs: 0,
      enabled: false,
    });
    if (!verdict.ok) throw new Error(verdict.problem.message);
    const fields = formFromEntry(verdict.entry);
    expect(fields).toMatchObject({ headers: "Authorization: Bearer {{ secrets.TOKEN }}", toolTimeoutMs: "0", enabled: false, secretNames: ["TOKEN"] });
    const { secretNames, enabled, id, name, oauthAllowIssuerMismatch, parameters, env, ...text } = fields;
    expect(oauthAllowIssuerMismatch).toBe(false);
    expect({ parameters, env }).toEqual({ parameters: {}, env: {} });
    const back = entryFromForm(form({ ...text, serverId: id, serverName: name, secretName: secretNames, secretValue: secretNames.map(() => ""), ...(enabled ? { enabled: "on" } : {}) }));
    expect(back.ok && parseServerEntry(back.input)).toEqual({ ok: true, entry: verdict.entry });
  });

  it("reads the OAuth fieldset and the allowed tools back to the same entry", () => {
    const verdict = parseServerEntry({
      id: "m2m",
      name: "Machine",
      transport: "http",
      url: "https://93.184.215.14/mcp",
      secrets: ["CLIENT_SECRET"],
      allowedTools: ["search", "fetch_page"],
      oauth: { grant: "client_credentials", clientId: "switchboard", clientSecret: "CLIENT_SECRET", scope: "tools:read", allowIssuerMismatch: true },
    });
    if (!verdict.ok) throw new Error(verdict.problem.message);
    const fields = formFromEntry(verdict.entry);
    expect(fields).toMatchObject({ oauthGrant: "client_credentials", oauthClientId: "switchboard", oauthClientSecret: "CLIENT_SECRET", allowedTools: "search, fetch_page", oauthAllowIssuerMismatch: true });
    const { secretNames, enabled, id, name, oauthAllowIssuerMismatch, parameters: _parameters, env: _env, ...text } = fields;
    const back = entryFromForm(
      form({ ...text, serverId: id, serverName: name, secretName: secretNames, secretValue: secretNames.map(() => ""), ...(enabled ? { enabled: "on" } : {}), ...(oauthAllowIssuerMismatch ? { oauthAllowIssuerMismatch: "on" } : {}) }),
    );
    expect(back.ok && parseServerEntry(back.input)).toEqual({ ok: true, entry: verdict.entry });
  });
});
