// `azqueue/server`: the Node server behind `npx azqueue`, to start from code (tests, tools).

/** Parses the command line's flags (`azqueue --help` lists them). Throws on a bad flag. */
export function parseArgs(argv: string[]): Record<string, unknown>;

export interface RunningServer {
  /** `http://host:port/<account>`, the queue service's URL. */
  queueUrl: string;
  /** The teaching page's URL; undefined unless `webPort` was given and its port was free. */
  webUrl?: string;
  /** A connection string for the official SDKs. */
  connectionString: string;
  close(): Promise<void>;
}

/**
 * Starts the queue service (and the page, with `webPort`), as `azqueue` with these flags would.
 * A page port that cannot be had is reported through `warn` and leaves the queue service running.
 */
export function startServer(
  options: Record<string, unknown>,
  hooks?: { log?: (line: string) => void; warn?: (line: string) => void },
): Promise<RunningServer>;
