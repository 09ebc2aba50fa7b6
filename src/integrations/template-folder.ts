/**
 * The operator's message templates (WARD_TEMPLATES_DIR), read once and again only when a file
 * changes: each use looks at the file's size and modification time (one stat, no read) and reads it
 * only when they differ from what was read before. A file that appears, changes or goes away is seen
 * at the next message, without a restart.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the folder needs of the file system (tests count the reads). */
export interface TemplateFs {
  /** Size and modification time, or undefined when there is no such file. */
  stat(path: string): { size: number; mtimeMs: number } | undefined;
  read(path: string): string;
}

const nodeFs: TemplateFs = {
  stat(path) {
    const s = statSync(path, { throwIfNoEntry: false });
    return s?.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : undefined;
  },
  read: (path) => readFileSync(path, 'utf8'),
};

export interface TemplateFolder {
  /** The text of one template file of the folder, or undefined when it has none by that name. */
  file(name: string): string | undefined;
}

export function createTemplateFolder(dir: string, fs: TemplateFs = nodeFs): TemplateFolder {
  const cache = new Map<string, { size: number; mtimeMs: number; text: string }>();
  return {
    file(name) {
      const path = join(dir, name);
      const now = fs.stat(path);
      if (!now) {
        cache.delete(name);
        return undefined;
      }
      const held = cache.get(name);
      if (held && held.size === now.size && held.mtimeMs === now.mtimeMs) return held.text;
      const text = fs.read(path);
      cache.set(name, { ...now, text });
      return text;
    },
  };
}

const folders = new Map<string, TemplateFolder>();

/** The one folder object of a path, so every sender of the process shares what was read. */
export function templateFolder(dir: string): TemplateFolder {
  let folder = folders.get(dir);
  if (!folder) {
    folder = createTemplateFolder(dir);
    folders.set(dir, folder);
  }
  return folder;
}
