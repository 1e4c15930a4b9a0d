import type { Config } from '../../config';
import type { WorkflowEngine } from '../../domain/flows';
import type { Logger } from 'pino';
import type { FileStore } from '../../storage/file-store';
import type { EditorLinks } from './editor-links';

/** What the project services need besides the request context. */
export interface ProjectServiceDeps {
  config: Config;
  engine: WorkflowEngine;
  files: FileStore;
  log: Logger;
  editorLinks: EditorLinks;
}
