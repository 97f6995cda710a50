/**
 * npm run docs:architecture
 *   Regenerates the table of rooms and their allowed arrows in
 *   docs/ARCHITECTURE.md from .dependency-cruiser.cjs, the rules
 *   `npm run lint:imports` enforces. A test fails while the table is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readRoomMap, renderRoomTable, withRoomTable } from "./architecture/room-map";

const root = path.resolve(import.meta.dirname, "..");
const file = path.join(root, "docs", "ARCHITECTURE.md");
const map = readRoomMap(path.join(root, ".dependency-cruiser.cjs"));
writeFileSync(file, withRoomTable(readFileSync(file, "utf8"), renderRoomTable(map)));
console.log(`docs:architecture: ${Object.keys(map.rooms).length} rooms in docs/ARCHITECTURE.md`);
