// The --debug log's entry for one request: the access line, the request's headers and body, then
// the answer's. The wasm connection has already replaced every secret with <redacted>.

/**
 * One request in the --debug log: the access line, the request, then the answer.
 * @param {string} line
 * @param {{ headers?: [string, string][], body?: string, status: number,
 *   responseHeaders?: [string, string][], responseBody?: string }} entry
 */
export function debugEntry(
  line,
  { headers = [], body = '', status, responseHeaders = [], responseBody = '' },
) {
  /**
   * @param {[string, string][]} pairs
   * @param {string} text
   */
  const block = (pairs, text) => [
    ...pairs.map(([k, v]) => `  ${k}: ${v}`),
    ...(text ? ['', ...text.split('\n').map((l) => `  ${l}`)] : []),
  ];
  return (
    [
      line,
      '> request',
      ...block(headers, body),
      `< response ${status}`,
      ...block(responseHeaders, responseBody),
      '',
    ].join('\n') + '\n'
  );
}
