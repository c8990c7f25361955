import { useQuery } from "@tanstack/react-query";
import { type RouterOutputs, trpc } from "../trpc.ts";

type Permission = RouterOutputs["projectAccess"]["permissions"]["permissions"][number];

interface ProjectPermissions {
  /** Whether the user holds `permission` in the project; false until the server has answered. */
  can: (permission: Permission) => boolean;
  /** The server has answered and the user may change no flag here: the pages say so instead of offering controls. */
  readOnly: boolean;
}

/** Writing a flag of the project, any part of it. */
const FLAG_WRITES: readonly Permission[] = [
  "CREATE_FEATURE",
  "UPDATE_FEATURE",
  "DELETE_FEATURE",
  "UPDATE_FEATURE_ENVIRONMENT",
  "UPDATE_FEATURE_ENVIRONMENT_VARIANTS",
  "CREATE_FEATURE_STRATEGY",
  "UPDATE_FEATURE_STRATEGY",
  "DELETE_FEATURE_STRATEGY",
  "UPDATE_FEATURE_DEPENDENCY",
];

/**
 * What the user may do in a project, as the server says it (docs/project-roles.md#what-you-may-do):
 * their project roles there, else their root role. Pages show a write control when `can` says so.
 */
export function useProjectPermissions(projectId: string): ProjectPermissions {
  const answer = useQuery(trpc.projectAccess.permissions.queryOptions({ projectId }));
  const held = new Set(answer.data?.permissions ?? []);
  return {
    can: (permission) => held.has(permission),
    readOnly: answer.data !== undefined && !FLAG_WRITES.some((p) => held.has(p)),
  };
}
