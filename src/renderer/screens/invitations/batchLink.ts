/** The Invitations list narrowed to the invitations one import sent: `#/invitations/batch/<job id>`. */
export const batchHref = (jobId: string) => `#/invitations/batch/${encodeURIComponent(jobId)}`;
