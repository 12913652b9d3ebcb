-- Generations of accounts deleted during a day still count toward the instance's daily cap (issue 13).
CREATE TABLE "RetiredQuota" (
    "day" TEXT NOT NULL PRIMARY KEY,
    "used" INTEGER NOT NULL DEFAULT 0
);
