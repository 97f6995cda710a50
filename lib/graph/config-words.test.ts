import { describe, expect, it } from "vitest";
import { configIssueInWords, settingTitle } from "./config-words";
import type { ConfigSchema } from "./node-type-info";

const schema = {
  type: "object",
  properties: { baseUrl: { type: "string", title: "Base URL", format: "uri" }, method: { type: "string", enum: ["GET", "POST"] }, maxTurns: { type: "integer" } },
} as unknown as ConfigSchema;

describe("config issues in words", () => {
  it("names the setting by its title, else its key in words", () => {
    expect(settingTitle("baseUrl", schema)).toBe("Base URL");
    expect(settingTitle("maxTurns", schema)).toBe("Max turns");
    expect(settingTitle("server_id")).toBe("Server ID");
    expect(settingTitle("baseUrl.path", schema)).toBe("Base URL: Path");
  });

  it("says what validators say, in words", () => {
    expect(configIssueInWords({ field: "baseUrl", message: "must have required property 'baseUrl'" }, schema)).toBe("Base URL is required");
    expect(configIssueInWords({ field: "serverId", message: "is required" })).toBe("Server ID is required");
    expect(configIssueInWords({ field: "maxTurns", message: "must be <= 20" }, schema)).toBe("Max turns must be at most 20");
    expect(configIssueInWords({ field: "method", message: "must be equal to one of the allowed values" }, schema)).toBe('Method must be one of "GET", "POST"');
    expect(configIssueInWords({ field: "baseUrl", message: 'must match format "uri"' }, schema)).toBe("Base URL must be a full URL, e.g. https://api.example.com");
    expect(configIssueInWords({ field: "maxTurns", message: "must be integer" }, schema)).toBe("Max turns must be a whole number");
  });

  it("keeps what it does not recognise after the setting's name", () => {
    expect(configIssueInWords({ field: "baseUrl", message: "is odd" }, schema)).toBe("Base URL: is odd");
    expect(configIssueInWords({ message: "something is off" })).toBe("Something is off");
  });
});
