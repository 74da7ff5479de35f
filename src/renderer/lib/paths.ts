/** The last part of a path written on any system. */
export const fileNameOf = (path: string) => path.split(/[\\/]/).pop() || path;
