/**
 * npm run db:migrate
 *   Migrates the database named by DATABASE_URL: `prisma migrate deploy` on
 *   SQLite, prisma/postgres/migrations on Postgres. `npm start` does this
 *   itself; workers do not (run this once per deploy, before them).
 */
import { prepareAppOrExit } from "./prepare-app";

process.chdir(new URL("..", import.meta.url).pathname);
await prepareAppOrExit();
