-- The reminders of an application's deadline, one row each, claimed before the mail goes.
CREATE TABLE "DeadlineReminder" (
    "narrativeId" TEXT NOT NULL,
    "daysBefore" INTEGER NOT NULL,
    "sentAt" TIMESTAMP(3),

    CONSTRAINT "DeadlineReminder_pkey" PRIMARY KEY ("narrativeId","daysBefore")
);

ALTER TABLE "DeadlineReminder" ADD CONSTRAINT "DeadlineReminder_narrativeId_fkey" FOREIGN KEY ("narrativeId") REFERENCES "Narrative"("id") ON DELETE CASCADE ON UPDATE CASCADE;
