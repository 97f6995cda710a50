import { callLists } from "../call-lists";
import { checkUrlOrigin } from "../url-origin";
import { defineRule, type Finding } from "../rule";

export const callNameDuplicate = defineRule({
  id: "call-name-duplicate",
  severity: "error",
  reads: [],
  summary: "Call names are unique within their list, since later calls read them as `calls.<name>`.",
  check(node) {
    return callLists(node).flatMap((list) => {
      const seen = new Set<string>();
      return list.calls.flatMap((call, index): Finding[] => {
        const repeated = seen.has(call.name);
        seen.add(call.name);
        return repeated ? [{ in: list.in, path: [...list.path, index, "name"], message: `call name '${call.name}' is used twice in ${list.label}; give each call its own name` }] : [];
      });
    });
  },
});

function urlRule(id: "url-host-templated" | "url-scheme", summary: string) {
  return defineRule({
    id,
    severity: "error",
    reads: [],
    summary,
    check(node) {
      return callLists(node).flatMap((list) =>
        list.calls.flatMap((call, index): Finding[] => {
          const urls: Array<[string, Array<string | number>]> = [];
          if (call.url !== undefined) urls.push([call.url, ["url"]]);
          if (call.presign !== undefined) urls.push([call.presign.url, ["presign", "url"]]);
          return urls.flatMap(([url, at]): Finding[] => {
            const verdict = checkUrlOrigin(url);
            if (verdict.ok || verdict.rule !== id) return [];
            return [{ in: list.in, path: [...list.path, index, ...at], message: `call '${call.name}': ${verdict.message}` }];
          });
        }),
      );
    },
  });
}

export const urlHostTemplated = urlRule("url-host-templated", "A call's URL host cannot come from a template: it is literal, or a leading `{{ config.<name> }}` followed by a path.");
export const urlScheme = urlRule("url-scheme", "A call's URL is http or https and has a host.");

export const callUrlMissing = defineRule({
  id: "call-url-missing",
  severity: "error",
  reads: [],
  summary: "Every call has a `url`, except a `state`, `wait`, `presign` or `loop` step (which makes no request); a `state: save` step has a `value`; a `loop` step has a `key`, and `loop: open` a `value`.",
  check(node) {
    return callLists(node).flatMap((list) =>
      list.calls.flatMap((call, index): Finding[] => {
        if (call.state === "save" && call.value === undefined) return [{ in: list.in, path: [...list.path, index], message: `call '${call.name}' saves state but has no \`value\` to save` }];
        if (call.loop !== undefined) {
          if (call.key === undefined) return [{ in: list.in, path: [...list.path, index], message: `call '${call.name}' is a loop step (loop: ${call.loop}) but has no \`key\` naming the loop` }];
          if (call.loop === "open" && call.value === undefined) return [{ in: list.in, path: [...list.path, index], message: `call '${call.name}' opens a loop but has no \`value\` (the list to loop over)` }];
          return [];
        }
        if (call.state !== undefined || call.wait !== undefined || call.presign !== undefined || call.url !== undefined) return [];
        return [{ in: list.in, path: [...list.path, index], message: `call '${call.name}' has no url; every request needs one (only a \`state\` step makes none)` }];
      }),
    );
  },
});

export const presignCredential = defineRule({
  id: "presign-credential",
  severity: "error",
  reads: [],
  summary: "A `presign` entry signs with `credential: { scheme: awsSigV4, … }` and makes no request (no `url`, body, paginate, poll or chunk beside it).",
  check(node) {
    return callLists(node).flatMap((list) =>
      list.calls.flatMap((call, index): Finding[] => {
        if (call.presign === undefined) return [];
        const at = [...list.path, index];
        if (call.credential?.scheme !== "awsSigV4") {
          return [{ in: list.in, path: call.credential ? [...at, "credential", "scheme"] : [...at, "presign"], message: `call '${call.name}' presigns links but has no \`credential: { scheme: awsSigV4, service: … }\` to sign them with` }];
        }
        const extra = (["url", "body", "query", "paginate", "poll", "chunk", "state", "wait"] as const).find((key) => call[key] !== undefined);
        return extra ? [{ in: list.in, path: [...at, extra], message: `call '${call.name}' presigns links, which sends no request: \`${extra}\` beside \`presign\` would never be used (put the URL in presign.url)` }] : [];
      }),
    );
  },
});
