/**
 * The shapes every client operation is one of: one list page, every page of a list, one record,
 * one record that may not exist. Each names its operation (for statistics, logs and messages)
 * and its path; the client fills them from the registry.
 */
import type { Logger } from "../log/logger.js";
import type { ListContent } from "./envelope.js";
import { NotFoundError } from "./errors.js";
import { positiveInteger } from "./option-checks.js";
import { type ListPage, type PagesOptions, paginate } from "./paginate.js";
import type { Call, Transport } from "./transport.js";
import type { ListRequest, ListResponse } from "./types.js";

export interface CallsSettings {
  readonly transport: Transport;
  readonly baseUrl: URL;
  /** `limit` asked for by `pages` unless its options say otherwise. */
  readonly pageSize: number;
  /** Pages a listing keeps requested ahead (see paginate.ts). */
  readonly window: number;
  readonly logger: Logger;
}

export function post(operation: string, path: string, body: unknown, write = false): Call {
  return { operation, method: "POST", path, body, write };
}

export function get(operation: string, path: string): Call {
  return { operation, method: "GET", path };
}

export class Calls {
  constructor(private readonly settings: CallsSettings) {}

  async list<T>(call: Call): Promise<ListResponse<T>> {
    return toResponse<T>(await this.settings.transport.list(call));
  }

  /** A list scoped to a parent that does not exist holds nothing (survives 404 or empty). */
  async listForParent<T>(call: Call): Promise<ListResponse<T>> {
    try {
      return await this.list<T>(call);
    } catch (error) {
      if (error instanceof NotFoundError) return { total: 0, result: [] };
      throw error;
    }
  }

  async single<T>(call: Call): Promise<T> {
    // The record's shape is the portal's promise; the loader checks every field.
    return (await this.settings.transport.single(call)) as T;
  }

  async maybe<T>(call: Call): Promise<T | null> {
    try {
      return await this.single<T>(call);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  /** Every page of a list; `notFoundIsEmpty` for a list scoped to a parent that may not exist. */
  pages<T>(
    operation: string,
    path: string,
    key: string,
    pageOptions: PagesOptions,
    notFoundIsEmpty: boolean,
  ): AsyncIterable<ListPage<T>> {
    const { transport, baseUrl, logger } = this.settings;
    return paginate<T>({
      pageSize: positiveInteger("pageSize", pageOptions.pageSize, this.settings.pageSize),
      key,
      window: this.settings.window,
      onSummary: pageOptions.onSummary,
      logger,
      label: `${operation} (${baseUrl.pathname.replace(/\/+$/, "")}${path})`,
      fetchPage: async (start, limit, signal, extra) => {
        const body: ListRequest = { start, limit };
        const criteria = [...(pageOptions.criteria ?? []), ...(extra ?? [])];
        if (pageOptions.criteria !== undefined || criteria.length > 0) body.criterias = criteria;
        try {
          return await transport.list({ ...post(operation, path, body), signal });
        } catch (error) {
          if (notFoundIsEmpty && error instanceof NotFoundError) return { total: 0, records: [] };
          throw error;
        }
      },
    });
  }
}

function toResponse<T>(content: ListContent): ListResponse<T> {
  // Typing the records is the portal's promise; the loader validates every field.
  return { total: content.total, result: content.records as T[] };
}
