-- A person's calendar of deadlines has a secret address signed with "calendarVersion", and renewing counts it
-- up. Deadline reminders can be turned off, and go at most once a day.
ALTER TABLE "User" ADD COLUMN "calendarVersion" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "User" ADD COLUMN "deadlineReminders" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "User" ADD COLUMN "remindedOn" TEXT;
