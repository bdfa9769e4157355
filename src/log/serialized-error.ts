/**
 * An Error after redaction: plain enumerable fields, so JSON lines carry `type`, `message`,
 * `stack` and `cause`, and the human format can recognise it and print `Type: message`.
 */
export class SerializedError {
  declare readonly type: string;
  declare readonly message: string;
  declare readonly stack?: string;
  declare readonly cause?: unknown;
  [key: string]: unknown;

  constructor(parts: {
    type: string;
    message: string;
    stack: string | undefined;
    cause: unknown;
    extra: Readonly<Record<string, unknown>>;
  }) {
    // Extra own properties (an ApiError's code, operation, path, httpStatus) go first so they
    // cannot overwrite the standard fields.
    Object.assign(
      this,
      parts.extra,
      { type: parts.type, message: parts.message },
      parts.stack === undefined ? {} : { stack: parts.stack },
      parts.cause === undefined ? {} : { cause: parts.cause },
    );
  }
}
