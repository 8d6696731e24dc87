import type { BodyOf, ListParams, Task } from '../api-types.ts'
import type { PagedList } from '../pages.ts'
import type { WithResponse } from '../response-meta.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { pagedList } from './list.ts'
import { pathOf } from './path.ts'
import { recordOf } from './record.ts'

/** Tasks: list the ones the token may open; read, create, change and complete them. */
export class Tasks {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Tasks the token may open, newest first; `status` takes several, as `['todo', 'blocked']`. */
  list(params: ListParams<'listTasks'> = {}, options?: RequestOptions): PagedList<Task> {
    return pagedList(this.#transport, '/v1/tasks', params, options)
  }

  /** One task; an id the token may not open, or of another kind, is a NotFoundError. */
  get(id: string, options?: RequestOptions): Promise<WithResponse<Task>> {
    return recordOf(this.#transport, 'task', id, options)
  }

  /** Creates a task (scope `task:write`). */
  create<O extends WriteOptions = WriteOptions>(
    body: BodyOf<'createTask'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Task>> {
    return this.#transport.request({ method: 'POST', path: '/v1/tasks', body, write: options })
  }

  /**
   * Changes the fields given (scope `task:write`): title, description, status (`done` completes,
   * another status reopens), `assignee_id` and `due` (null clears them).
   */
  update<O extends WriteOptions = WriteOptions>(
    id: string,
    body: BodyOf<'updateTask'>,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Task>> {
    return this.#transport.request({
      method: 'PATCH',
      path: pathOf`/v1/tasks/${id}`,
      body,
      write: options,
    })
  }

  /** Marks a task done; completing a done task changes nothing. */
  complete<O extends WriteOptions = WriteOptions>(
    id: string,
    options: O = {} as O,
  ): Promise<WriteAnswer<O, Task>> {
    return this.#transport.request({
      method: 'POST',
      path: pathOf`/v1/tasks/${id}/complete`,
      write: options,
    })
  }
}
