// What a list of sessions shows of a browser: its name and major version, and its operating system, read
// from the User-Agent header. Deliberately small (a dozen rules, no device database): the label helps a
// user recognise their own sign-ins, and a header can say anything, so nothing relies on it.

export interface Browser {
  /** 'Firefox 133', 'Chrome 131', 'Safari 17'... null when no rule knows it. */
  browser: string | null;
  /** 'Windows', 'macOS', 'iOS', 'Android', 'ChromeOS', 'Linux'; null when unknown. */
  os: string | null;
}

/** The first rule that matches wins: the order matters, as most browsers also claim to be others. */
const BROWSERS: ReadonlyArray<readonly [string, RegExp]> = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\b(?:OPR|Opera)\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//],
];

const SYSTEMS: ReadonlyArray<readonly [string, RegExp]> = [
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['Android', /\bAndroid\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['Windows', /\bWindows\b/],
  ['macOS', /\bMacintosh\b|\bMac OS X\b/],
  ['Linux', /\bLinux\b/],
];

/** The browser and system a User-Agent header names (both null for an empty or unknown one). */
export function parseUserAgent(header: string | null | undefined): Browser {
  const ua = (header ?? '').slice(0, 400);
  let browser: string | null = null;
  for (const [name, rule] of BROWSERS) {
    const m = rule.exec(ua);
    if (m) {
      browser = `${name} ${m[1]}`;
      break;
    }
  }
  const os = SYSTEMS.find(([, rule]) => rule.test(ua))?.[0] ?? null;
  return { browser, os };
}
