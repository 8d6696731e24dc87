import type { BodyOf, ListParams, Task, TaskStatus } from '../api-types.ts'
import { PagedList } from '../pages.ts'
import type { RequestOptions, Transport, WriteAnswer, WriteOptions } from '../transport.ts'
import { pathOf } from './path.ts'

/** Filters of `wg.tasks.list`; `status` takes one status or several. */
export type ListTasksParams = Omit<ListParams<'listTasks'>, 'status'> & {
  status?: TaskStatus | TaskStatus[]
}

/** Tasks: list the ones the token may open; create, change and complete them. */
export class Tasks {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /** Tasks the token may open, newest first; iterate it, or call `firstPage()`. */
  list(params: ListTasksParams = {}, options?: RequestOptions): PagedList<Task> {
    return new PagedList((cursor) =>
      this.#transport.request({
        method: 'GET',
        path: '/v1/tasks',
        query: { ...params, cursor },
        options,
      }),
    )
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
