-- A story or quote beside the impact fields (docs/spec.md#the-narrative-form). Existing narratives had
-- none: their claims, found without it, stay as they are.
ALTER TABLE "Narrative" ADD COLUMN "successStory" TEXT NOT NULL DEFAULT '';
