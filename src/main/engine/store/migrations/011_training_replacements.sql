-- A changed file replaces a document: the upload keeps that document's access (unless the admin chose one for the
-- whole job), and the preview warns when the new content is much shorter than the document it replaces.
ALTER TABLE train_preview_files ADD COLUMN access TEXT CHECK (access IN ('public', 'private'));
ALTER TABLE train_preview_files ADD COLUMN warning TEXT;
