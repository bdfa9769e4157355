/**
 * A request the simulated portal refuses: the HTTP status and the one-line message that go into
 * the `{code, message}` failure body (docs/api.md §4). `code` repeats the HTTP status, which is
 * the simplest reading of a body that carries an integer code and nothing else.
 */
export class RequestError extends Error {
  override readonly name = "RequestError";
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** 400: the request's body or path is not acceptable. */
export const badRequest = (message: string): RequestError => new RequestError(400, message);

/** 404: the id in the path matches no record. */
export const notFound = (message: string): RequestError => new RequestError(404, message);
