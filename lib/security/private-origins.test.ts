import { describe, expect, it } from "vitest";
import { allowedPrivateOrigins, parsePrivateOrigin, reportPrivateOriginSettings, retiredSwitchMessage } from "./private-origins";

describe("SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS", () => {
  it("is empty unless set: nothing private is reachable by default", () => {
    expect(allowedPrivateOrigins({})).toEqual([]);
    expect(allowedPrivateOrigins({ SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: " , " })).toEqual([]);
  });

  it("reads comma-separated origins, normalized as the URL parser writes them", () => {
    expect(allowedPrivateOrigins({ SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: "http://127.0.0.1:11434, HTTP://Ollama.Internal:80 ,https://10.0.0.5:8443/" })).toEqual([
      "http://127.0.0.1:11434",
      "http://ollama.internal",
      "https://10.0.0.5:8443",
    ]);
  });

  it.each([
    ["127.0.0.1:11434", /is not a URL|not http or https/],
    ["ftp://10.0.0.1", /not http or https/],
    ["http://127.0.0.1:11434/v1", /has a path/],
    ["http://127.0.0.1:11434?x=1", /has a path, query/],
    ["http://user:pw@127.0.0.1:11434", /user name or password/],
    ["true", /is not a URL/],
  ])("refuses %s, naming the variable and the entry", (entry, reason) => {
    expect(() => parsePrivateOrigin(entry)).toThrow(reason);
    expect(() => allowedPrivateOrigins({ SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: entry })).toThrow(/SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: '/);
  });

  it("says at start-up that the old switch was replaced, whatever its value", () => {
    expect(retiredSwitchMessage({})).toBeNull();
    for (const value of ["true", "false", ""]) {
      expect(retiredSwitchMessage({ SWITCHBOARD_ALLOW_PRIVATE_URLS: value })).toMatch(
        /SWITCHBOARD_ALLOW_PRIVATE_URLS was replaced by SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS and is ignored/,
      );
    }
  });
});

describe("reportPrivateOriginSettings", () => {
  it("logs the replaced switch and the listed origins; a bad list is reported and fails the check", () => {
    const lines: string[] = [];
    expect(reportPrivateOriginSettings((line) => lines.push(line), { SWITCHBOARD_ALLOW_PRIVATE_URLS: "true", SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: "http://127.0.0.1:11434" })).toBe(true);
    expect(lines).toEqual([expect.stringMatching(/was replaced by SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS/), "private origins calls may reach: http://127.0.0.1:11434"]);
    const bad: string[] = [];
    expect(reportPrivateOriginSettings((line) => bad.push(line), { SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: "127.0.0.1" })).toBe(false);
    expect(bad).toEqual([expect.stringMatching(/SWITCHBOARD_ALLOWED_PRIVATE_ORIGINS: '127\.0\.0\.1'/)]);
  });
});
