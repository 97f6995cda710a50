/**
 * The app server one Playwright process tests, and what is its own: its port
 * (E2E_PORT), its SQLite database, its cases folder and the owner's saved
 * session. Everything is named by the port, so two processes on two ports (the
 * shards of `npm run test:e2e`, scripts/e2e-shards.mjs) share no state.
 */
export const e2ePort = Number(process.env.E2E_PORT ?? 3217);

/** The server's data folder, under data/ (ignored by git). */
const dataFolder = `data/e2e-${e2ePort}`;

/** The database the e2e server uses, reset at its start (playwright.config.ts). */
export const e2eDatabaseUrl = `file:./${dataFolder}/app.db`;

/** Where "Keep as test" writes case files (SWITCHBOARD_CASES_DIR), not the repository's tests/cases. */
export const e2eCasesDir = `${dataFolder}/cases`;

/** Where the owner's signed-in session is saved; every spec starts from it. */
export const ownerStorageState = `e2e/.auth/owner-${e2ePort}.json`;
