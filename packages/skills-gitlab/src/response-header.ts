/** Response headers as Node hands them over. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** The first value of the header `name` (lower case). */
export function header(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
