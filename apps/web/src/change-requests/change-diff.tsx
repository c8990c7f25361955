import { normalisedWeights, percent, type Variant, type VariantInput } from "../features/variant-draft.ts";
import { DataTable } from "../data-table.tsx";

interface Shown {
  weight: string;
  stickiness: string;
  payload: string;
}

const describe = (
  weight: number | null,
  v: { weightType?: string; stickiness?: string; payload?: { type: string; value: string } | null },
): Shown => ({
  weight: weight === null ? "–" : `${percent(weight)} ${v.weightType ?? "variable"}`,
  stickiness: v.stickiness ?? "default",
  payload: v.payload ? `${v.payload.type}: ${v.payload.value}` : "none",
});

/** The proposed variants with the weights they will be stored with, by name. */
function proposedByName(inputs: VariantInput[]): Map<string, Shown> {
  const weights = normalisedWeights(
    inputs.map((v) => ({
      name: v.name,
      weightType: v.weightType ?? "variable",
      weight: String(v.weight ?? ""),
      stickiness: "",
      payloadType: "",
      payloadValue: "",
      overrides: [],
    })),
  );
  return new Map(inputs.map((v, i) => [v.name, describe(weights[i] ?? null, v)]));
}

function Cell({ shown }: { shown: Shown | undefined }) {
  if (!shown) return <td className="muted">absent</td>;
  return (
    <td>
      {shown.weight}
      <br />
      stickiness {shown.stickiness}
      <br />
      payload {shown.payload}
    </td>
  );
}

/** Before and after of a variants change, one row per variant name, each row saying what changes. */
export function VariantsDiff({ now, proposed, caption }: { now: Variant[] | undefined; proposed: VariantInput[]; caption: string }) {
  const before = new Map((now ?? []).map((v) => [v.name, describe(v.weight, v)]));
  const after = proposedByName(proposed);
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return (
    <DataTable caption={caption} columns={["Variant", "Now", "Proposed", "Change"]} className="diff">
      {names.map((name) => {
        const b = before.get(name);
        const a = after.get(name);
        const change = !b ? "added" : !a ? "removed" : JSON.stringify(a) === JSON.stringify(b) ? "unchanged" : "changed";
        return (
          <tr key={name} className={`diff-${change}`}>
            <th scope="row">{name}</th>
            <Cell shown={b} />
            <Cell shown={a} />
            <td>{change}</td>
          </tr>
        );
      })}
    </DataTable>
  );
}

export function EnabledDiff({ now, proposed }: { now: boolean | undefined; proposed: boolean }) {
  const word = (on: boolean | undefined) => (on === undefined ? "unknown" : on ? "on" : "off");
  return (
    <p className={now === proposed ? "diff-unchanged" : "diff-changed"}>
      Turn the feature {word(proposed)}: now {word(now)}, proposed {word(proposed)}.
    </p>
  );
}
