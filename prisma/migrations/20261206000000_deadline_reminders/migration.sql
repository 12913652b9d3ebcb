-- The reminders of an application's deadline, one row each, claimed before the mail goes (docs/decisions/053).
CREATE TABLE "DeadlineReminder" (
    "narrativeId" TEXT NOT NULL,
    "daysBefore" INTEGER NOT NULL,
    "sentAt" DATETIME,

    PRIMARY KEY ("narrativeId", "daysBefore"),
    CONSTRAINT "DeadlineReminder_narrativeId_fkey" FOREIGN KEY ("narrativeId") REFERENCES "Narrative" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
