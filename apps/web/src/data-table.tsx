import type { ReactNode } from "react";

/** A table with its caption and column headings; `busy` while its rows are loading. */
export function DataTable(props: { caption: string; columns: ReactNode[]; busy?: boolean; className?: string; children: ReactNode }) {
  return (
    <table className={props.className} aria-busy={props.busy || undefined}>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((column, i) => (
            <th key={i} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
}
