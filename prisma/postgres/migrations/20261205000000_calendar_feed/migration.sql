-- A person's calendar of deadlines has a secret address signed with this number, and renewing counts it up.
ALTER TABLE "User" ADD COLUMN "calendarVersion" INTEGER NOT NULL DEFAULT 0;
