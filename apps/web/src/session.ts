import { RootRole } from "@vexil/client/root-roles";
import { useSyncExternalStore } from "react";
import type { RouterOutputs } from "./trpc.ts";

export type SessionUser = RouterOutputs["auth"]["login"];

// The session cookie is HttpOnly, so the page keeps who logged in (not a secret) beside it.
const KEY = "vexil-console-user";
const listeners = new Set<() => void>();
let cached: { raw: string | null; user: SessionUser | null } = { raw: null, user: null };

function read(): SessionUser | null {
  const raw = localStorage.getItem(KEY);
  if (raw !== cached.raw) cached = { raw, user: raw ? (JSON.parse(raw) as SessionUser) : null };
  return cached.user;
}

export function setSessionUser(user: SessionUser | null): void {
  if (user) localStorage.setItem(KEY, JSON.stringify(user));
  else localStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

export function useSessionUser(): SessionUser | null {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    window.addEventListener("storage", listener);
    return () => {
      listeners.delete(listener);
      window.removeEventListener("storage", listener);
    };
  }, read);
}

/** A root role's name by its id. */
export const ROLE_NAMES: Record<number, string> = Object.fromEntries(Object.entries(RootRole).map(([name, id]) => [id, name]));
export const isAdmin = (user: SessionUser | null) => user?.rootRole === RootRole.Admin;
/** Admins and Editors hold CREATE_FEATURE, UPDATE_FEATURE_ENVIRONMENT_VARIANTS, APPROVE_ and APPLY_CHANGE_REQUEST. */
export const isEditor = (user: SessionUser | null) => user?.rootRole === RootRole.Admin || user?.rootRole === RootRole.Editor;
