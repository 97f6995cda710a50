-- Rate-limit counters shared by every web process (rate-limiter-flexible's Prisma store).
CREATE TABLE "RateLimit" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "points" INTEGER NOT NULL,
    "expire" DATETIME
);

CREATE INDEX "RateLimit_expire_idx" ON "RateLimit"("expire");
