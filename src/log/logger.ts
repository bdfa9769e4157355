/**
 * The narrow logging interface every stage takes. Implementations (human lines on a terminal,
 * JSON lines otherwise) live beside it; stages never import pino directly, and tests pass their
 * own collecting logger.
 */
export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** A logger that drops everything (library default). */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
