import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/** TEST SUPPORT: writes fixture files (path → text) under a root, making their folders. */
export async function writeFixtureTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
}
