/** A column of a table printed on the console: its cells are aligned right, or left with `left`. */
export interface Column<Row> {
  title: string;
  width: number;
  left?: boolean;
  cell: (row: Row) => string | number;
}

/** The table's lines, its titles first: each cell padded to its column's width, one space apart. */
export function tableLines<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string[] {
  const line = (text: (column: Column<Row>) => string | number) =>
    columns
      .map(({ width, left }, index) => {
        const cell = String(text(columns[index]!));
        return left ? cell.padEnd(width) : cell.padStart(width);
      })
      .join(' ');
  return [line((column) => column.title), ...rows.map((row) => line((column) => column.cell(row)))];
}
