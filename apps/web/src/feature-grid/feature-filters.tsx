import type { FeatureTypeView } from "./use-feature-types.ts";

/** What the grid asks search for: each field empty when it narrows nothing. */
export interface FeatureFilterValues {
  query: string;
  type: string;
  state: string;
  tag: string;
}

export const NO_FILTERS: FeatureFilterValues = { query: "", type: "", state: "", tag: "" };

/** The filters above the grid: text, type, state and a tag (`type:value`). */
export function FeatureFilters(props: {
  values: FeatureFilterValues;
  types: FeatureTypeView[];
  onChange(values: FeatureFilterValues): void;
}) {
  const set = (field: keyof FeatureFilterValues) => (e: { target: { value: string } }) =>
    props.onChange({ ...props.values, [field]: e.target.value });
  return (
    <search className="card row" aria-label="Search flags">
      <label>
        Search
        <input type="search" value={props.values.query} onChange={set("query")} placeholder="name, description or tag" />
      </label>
      <label>
        Type
        <select value={props.values.type} onChange={set("type")}>
          <option value="">any</option>
          {props.types.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        State
        <select value={props.values.state} onChange={set("state")}>
          <option value="">any</option>
          <option value="active">active</option>
          <option value="stale">stale</option>
          <option value="potentially-stale">potentially stale</option>
        </select>
      </label>
      <label>
        Tag
        <input value={props.values.tag} onChange={set("tag")} placeholder="simple:checkout" />
      </label>
    </search>
  );
}

/** The search input for these filters, in Unleash's `OPERATOR:value` syntax. */
export function searchInput(projectId: string, values: FeatureFilterValues, archived: boolean) {
  const tag = values.tag.trim();
  return {
    project: `IS:${projectId}`,
    archived: archived ? "IS:true" : "IS:false",
    ...(values.query.trim() ? { query: values.query.trim() } : {}),
    ...(values.type ? { type: `IS:${values.type}` } : {}),
    ...(values.state ? { state: `IS:${values.state}` } : {}),
    // A tag without a type is the seeded `simple` type's.
    ...(tag ? { tag: `INCLUDE:${tag.includes(":") ? tag : `simple:${tag}`}` } : {}),
  };
}
