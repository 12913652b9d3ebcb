-- An account of one's own (issue 13, decision 022): a change of email is confirmed through an emailed
-- link, which carries the address it will set.
ALTER TABLE "PasswordReset" ADD COLUMN "newEmail" TEXT;
