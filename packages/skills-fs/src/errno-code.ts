/** The `code` of a failed system call (`ENOENT`, `EEXIST`, …), or `undefined` for any other error. */
export function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
