import { createHash, type Hash } from "node:crypto";
import { TransferRefused } from "./transfer-refused.ts";

/** Bumped when the layout of the document changes; the schema is named separately. */
const TRANSFER_FORMAT = 1;

export interface DocumentHeader {
  vexil: "export";
  format: number;
  /** The last migration applied to the exported database. */
  schema: string;
  exportedAt: string;
}

/** A row as stored: each column's text form (Postgres' own output), or null. */
export type RowValues = (string | null)[];

export interface DocumentTable {
  name: string;
  columns: string[];
  rows: { line: number; values: RowValues }[];
}

export interface TransferDocument {
  header: DocumentHeader;
  tables: DocumentTable[];
}

/*
 * The document is one JSON value, laid out one record a line so that a broken one can be named:
 *   {"vexil":"export","format":1,"schema":"...","exportedAt":"...","records":[
 *   {"table":"projects","columns":["id","name",...]},
 *   ["default","Default",...],
 *   ...
 *   {"trailer":{"rows":{"projects":1,...},"sha256":"<hex of every line above the trailer>"}}
 *   ]}
 */
const CLOSING_LINE = "]}";

/** Writes the document line by line; `end()` writes the trailer, whose digest covers the rest. */
export class DocumentWriter {
  readonly #hash: Hash = createHash("sha256");
  readonly #counts: Record<string, number> = {};
  #table: string | undefined;

  constructor(private readonly write: (text: string) => void | Promise<void>) {}

  async #line(text: string): Promise<void> {
    this.#hash.update(`${text}\n`);
    await this.write(`${text}\n`);
  }

  async begin(header: Omit<DocumentHeader, "vexil" | "format">): Promise<void> {
    const head = JSON.stringify({ vexil: "export", format: TRANSFER_FORMAT, ...header, records: [] });
    await this.#line(head.slice(0, -CLOSING_LINE.length));
  }

  async table(name: string, columns: string[]): Promise<void> {
    this.#table = name;
    this.#counts[name] = 0;
    await this.#line(`${JSON.stringify({ table: name, columns })},`);
  }

  async row(values: RowValues): Promise<void> {
    this.#counts[this.#table as string]! += 1;
    await this.#line(`${JSON.stringify(values)},`);
  }

  async end(): Promise<void> {
    const trailer = { trailer: { rows: this.#counts, sha256: this.#hash.digest("hex") } };
    await this.write(`${JSON.stringify(trailer)}\n${CLOSING_LINE}\n`);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads and checks a whole document; a line that is not what it must be refuses it with its
 * number, and so does a trailer whose counts or digest disagree with the lines above it.
 */
export function readDocument(text: string): TransferDocument {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const refuse = (index: number, why: string) => new TransferRefused(`line ${index + 1}: ${why}`);
  const hash = createHash("sha256");

  const first = lines[0] ?? "";
  let header: unknown;
  try {
    header = JSON.parse(`${first}${CLOSING_LINE}`);
  } catch {
    throw refuse(0, "not the start of a Vexil export");
  }
  if (!isRecord(header) || header.vexil !== "export" || !Array.isArray(header.records) || header.records.length) {
    throw refuse(0, "not the start of a Vexil export");
  }
  if (header.format !== TRANSFER_FORMAT) {
    throw refuse(0, `the document's format is ${JSON.stringify(header.format)}; this Vexil reads format ${TRANSFER_FORMAT}`);
  }
  if (typeof header.schema !== "string" || typeof header.exportedAt !== "string")
    throw refuse(0, "the header lacks the schema or the export time");
  hash.update(`${first}\n`);

  const tables: DocumentTable[] = [];
  for (let index = 1; index < lines.length; index++) {
    const line = lines[index] as string;
    const hasComma = line.endsWith(",");
    let record: unknown;
    try {
      record = JSON.parse(hasComma ? line.slice(0, -1) : line);
    } catch {
      throw refuse(index, "not a JSON record (the document was changed or cut)");
    }
    const current = tables.at(-1);
    if (Array.isArray(record)) {
      if (!current) throw refuse(index, "a row before any table");
      if (!hasComma) throw refuse(index, "a row must be followed by a comma");
      if (record.length !== current.columns.length || !record.every((v) => v === null || typeof v === "string")) {
        throw refuse(index, `a row of ${current.name} must hold ${current.columns.length} values, each a string or null`);
      }
      current.rows.push({ line: index + 1, values: record });
    } else if (isRecord(record) && typeof record.table === "string") {
      const columns = record.columns;
      if (!hasComma || !Array.isArray(columns) || !columns.length || !columns.every((c) => typeof c === "string")) {
        throw refuse(index, "a table record needs its columns and a comma");
      }
      if (tables.some((t) => t.name === record.table)) throw refuse(index, `the table ${record.table} appears twice`);
      tables.push({ name: record.table, columns, rows: [] });
    } else if (isRecord(record) && isRecord(record.trailer)) {
      checkTrailer(record.trailer, tables, hash.digest("hex"), (why) => refuse(index, why));
      if (hasComma || lines[index + 1] !== CLOSING_LINE || index + 2 !== lines.length) {
        throw refuse(index + 1, `the trailer must be followed by a last line ${CLOSING_LINE} and nothing else`);
      }
      return { header: header as unknown as DocumentHeader, tables };
    } else {
      throw refuse(index, "not a record of a Vexil export");
    }
    hash.update(`${line}\n`);
  }
  throw refuse(lines.length, "the document ends before its trailer: it was cut short");
}

function checkTrailer(trailer: Record<string, unknown>, tables: DocumentTable[], digest: string, refuse: (why: string) => Error): void {
  const counts = trailer.rows;
  if (!isRecord(counts) || Object.keys(counts).length !== tables.length)
    throw refuse("the trailer's row counts do not name the document's tables");
  for (const table of tables) {
    if (counts[table.name] !== table.rows.length) {
      throw refuse(`the trailer counts ${String(counts[table.name])} rows of ${table.name}, the document holds ${table.rows.length}`);
    }
  }
  if (trailer.sha256 !== digest) throw refuse("the sha256 digest does not match the lines above: the document was changed after export");
}
