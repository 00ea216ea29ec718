import Table from "cli-table3";

/** One column of a table: its header and what a record shows in it. */
export interface Column<T> {
  header: string;
  cell: (record: T) => string;
}

/** A kind of record authctl prints: its table's columns, what a list of none says, and its JSON. */
export interface Records<T> {
  columns: readonly Column<T>[];
  /** "no sessions". */
  none: string;
  toJSON: (record: T) => unknown;
}

/**
 * Records as a plain table, a header row then a row each (no colours, so it stays readable when
 * piped); `none` when there are none.
 */
export function table<T>(records: readonly T[], kind: Records<T>): string {
  if (records.length === 0) return kind.none;
  const printed = new Table({
    head: kind.columns.map((column) => column.header),
    style: { head: [], border: [] },
  });
  for (const record of records) printed.push(kind.columns.map((column) => column.cell(record)));
  return printed.toString();
}
