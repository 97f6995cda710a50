import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { floorsOf, readRoomMap, renderRoomTable, withRoomTable } from "./room-map";

const root = path.resolve(import.meta.dirname, "..", "..");

describe("the room table in docs/ARCHITECTURE.md", () => {
  it("is the one .dependency-cruiser.cjs makes (run npm run docs:architecture)", () => {
    const document = readFileSync(path.join(root, "docs", "ARCHITECTURE.md"), "utf8");
    const table = renderRoomTable(readRoomMap(path.join(root, ".dependency-cruiser.cjs")));
    expect(withRoomTable(document, table), "docs/ARCHITECTURE.md is stale: run npm run docs:architecture").toBe(document);
  });

  it("puts every room above the rooms it imports, and refuses rooms in a circle", () => {
    const floors = floorsOf({ app: { about: "", may: ["lib/db"] }, "lib/db": { about: "", may: ["lib/graph"] }, "lib/graph": { about: "", may: [] } });
    expect(Object.fromEntries(floors)).toEqual({ app: 3, "lib/db": 2, "lib/graph": 1 });
    expect(() => floorsOf({ "lib/a": { about: "", may: ["lib/b"] }, "lib/b": { about: "", may: ["lib/a"] } })).toThrow("rooms in a circle: lib/a → lib/b → lib/a");
  });
});
