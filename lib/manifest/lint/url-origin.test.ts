import { describe, expect, it } from "vitest";
import { checkUrlOrigin } from "./url-origin";

describe("checkUrlOrigin", () => {
  it.each([
    "https://api.example.com/items/{{ params.id }}",
    "https://api.example.com?q={{ params.q }}",
    "{{ config.baseUrl }}/chat/completions",
    "{{ config.baseUrl }}",
    "https://{{ config.host }}/v1/items",
    "https://{{ config.host }}:8443/v1",
    "http://127.0.0.1:8080/health",
  ])("accepts %s", (url) => {
    expect(checkUrlOrigin(url)).toEqual({ ok: true });
  });

  it.each([
    ["https://{{ params.host }}/x", "url-host-templated"],
    ["https://api.{{ params.domain }}/x", "url-host-templated"],
    ["{{ params.url }}", "url-host-templated"],
    ["{{ config.baseUrl }}{{ inputs.path }}", "url-host-templated"],
    ["https://{{ config.host }}{{ params.more }}", "url-host-templated"],
    ["return 'https://' + params.host", "url-host-templated"],
    ["ftp://files.example.com/a", "url-scheme"],
    ["api.example.com/items", "url-scheme"],
    ["https:///path", "url-scheme"],
  ])("refuses %s (%s)", (url, rule) => {
    expect(checkUrlOrigin(url)).toMatchObject({ ok: false, rule });
  });
});
