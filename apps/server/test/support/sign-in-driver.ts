import { request } from "undici";

export interface Answer {
  status: number;
  location: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * A browser reduced to what a sign-in needs: a cookie jar per origin, redirects followed by hand
 * (so that each step can be looked at, or tampered with), forms posted as a browser posts them.
 */
export class SignInDriver {
  private readonly jar = new Map<string, Map<string, string>>();

  cookieHeader(url: string): string {
    return [...(this.jar.get(new URL(url).origin) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** The jar's cookies for an origin, to replay them later as they were. */
  cookies(url: string): Map<string, string> {
    return new Map(this.jar.get(new URL(url).origin));
  }

  setCookies(url: string, cookies: Map<string, string>): void {
    this.jar.set(new URL(url).origin, new Map(cookies));
  }

  private keep(url: string, setCookie: string | string[] | undefined): void {
    const origin = new URL(url).origin;
    const cookies = this.jar.get(origin) ?? new Map<string, string>();
    for (const header of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair = "", ...attributes] = header.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (gone) cookies.delete(name);
      else cookies.set(name, pair.slice(eq + 1).trim());
    }
    this.jar.set(origin, cookies);
  }

  async get(url: string): Promise<Answer> {
    return this.send(url, "GET");
  }

  async postForm(url: string, form: Record<string, string>): Promise<Answer> {
    return this.send(url, "POST", new URLSearchParams(form).toString());
  }

  private async send(url: string, method: "GET" | "POST", body?: string): Promise<Answer> {
    const headers: Record<string, string> = { cookie: this.cookieHeader(url) };
    if (body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
    const res = await request(url, { method, headers, body });
    this.keep(url, res.headers["set-cookie"]);
    const location = res.headers.location === undefined ? undefined : new URL(String(res.headers.location), url).href;
    return { status: res.statusCode, location, headers: res.headers, text: await res.body.text() };
  }

  /** Follows redirects from `url` until one leads to `stop` (not followed), or a page answers; the answer. */
  async follow(url: string, stop: (location: string) => boolean): Promise<Answer> {
    let answer = await this.get(url);
    for (let hops = 0; answer.location && !stop(answer.location) && hops < 10; hops++) answer = await this.get(answer.location);
    return answer;
  }
}
