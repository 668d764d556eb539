import {
  bookingTableColumns,
  type BookingFilter,
  type BookingOrder,
  type BookingSelection,
  type BookingTableColumn,
  type ComparisonOperator,
} from '../../supabase/functions/_shared/db/bookings-repository.ts';
import { maxRowsPerRead } from '../../supabase/functions/_shared/core/api-defaults.ts';
import {
  columnDoesNotExist,
  invalidCount,
  invalidFilter,
  invalidOrder,
  invalidSelect,
  unsupportedLogicTree,
} from '../http/api-errors.ts';

/**
 * The part of PostgREST's query language the practitioner needs to read
 * bookings: `select` (columns, `*`, `alias:column`), `order`
 * (`created_at.desc.nullslast`), `limit`, `offset` and per-column filters
 * (`eq`, `neq`, `gt`, `gte`, `lt`, `lte`, `is.null`, each optionally `not.`).
 * Column names are checked against the table; values are bound by the repository.
 */

export interface SelectedColumn {
  /** The key in the JSON answer (the column name, or its alias). */
  key: string;
  column: BookingTableColumn;
}

export interface BookingQuery {
  selection: BookingSelection;
  /** The answer's keys, in the requested order. */
  output: SelectedColumn[];
  offset: number;
}

const comparisonOperators = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
] as const satisfies readonly ComparisonOperator[];

/** Query parameters that are not filters. `columns` and `on_conflict` only matter to writes. */
const reservedParameters = new Set([
  'select',
  'order',
  'limit',
  'offset',
  'columns',
  'on_conflict',
]);

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function parseBookingQuery(params: URLSearchParams, countTotal: boolean): BookingQuery {
  const output = parseSelect(params.get('select') ?? '*');
  const order = parseOrder(params.get('order'));
  const requestedLimit = parseCount('limit', params.get('limit'));
  const offset = parseCount('offset', params.get('offset')) ?? 0;

  const filters = parseBookingFilters(params);

  return {
    output,
    offset,
    selection: {
      columns: output.map(({ column }) => column),
      filters,
      order,
      limit: Math.min(requestedLimit ?? maxRowsPerRead, maxRowsPerRead),
      offset: offset === 0 ? undefined : offset,
      countTotal,
    },
  };
}

/** The column filters of a query string, joined by "and"; other parameters are left to the caller. */
function parseBookingFilters(params: URLSearchParams): BookingFilter[] {
  const filters: BookingFilter[] = [];
  for (const [key, value] of params) {
    if (reservedParameters.has(key)) continue;
    if (key === 'and' || key === 'or' || key === 'not.and' || key === 'not.or') {
      throw unsupportedLogicTree(value);
    }
    filters.push(parseFilter(key, value));
  }
  return filters;
}

function parseSelect(select: string): SelectedColumn[] {
  const items = select.split(',').map((item) => item.trim());
  if (select.trim() === '') return [];
  return items.flatMap((item): SelectedColumn[] => {
    if (item === '*') return bookingTableColumns.map((column) => ({ key: column, column }));
    const [alias, name, ...rest] = item.includes(':') ? item.split(':') : [undefined, item];
    if (
      rest.length > 0 ||
      name === undefined ||
      !identifier.test(name) ||
      (alias !== undefined && !identifier.test(alias))
    ) {
      throw invalidSelect(select);
    }
    return [{ key: alias ?? name, column: knownColumn(name) }];
  });
}

function parseOrder(order: string | null): BookingOrder[] {
  if (order === null || order.trim() === '') return [];
  return order.split(',').map((term) => {
    const [name = '', ...modifiers] = term.trim().split('.');
    const parsed: BookingOrder = { column: knownColumn(name), descending: false };
    let seenDirection = false;
    let seenNulls = false;
    for (const modifier of modifiers) {
      if ((modifier === 'asc' || modifier === 'desc') && !seenDirection && !seenNulls) {
        parsed.descending = modifier === 'desc';
        seenDirection = true;
      } else if ((modifier === 'nullsfirst' || modifier === 'nullslast') && !seenNulls) {
        parsed.nullsFirst = modifier === 'nullsfirst';
        seenNulls = true;
      } else {
        throw invalidOrder(order, modifier);
      }
    }
    return parsed;
  });
}

function parseCount(name: 'limit' | 'offset', value: string | null): number | undefined {
  if (value === null) return undefined;
  if (!/^\d{1,15}$/.test(value)) throw invalidCount(name, value);
  return Number(value);
}

function parseFilter(key: string, expression: string): BookingFilter {
  const column = knownColumn(key);
  let rest = expression;
  const negated = rest.startsWith('not.');
  if (negated) rest = rest.slice('not.'.length);
  const dot = rest.indexOf('.');
  const operator = dot === -1 ? rest : rest.slice(0, dot);
  const value = dot === -1 ? undefined : rest.slice(dot + 1);

  if (operator === 'is' && value?.toLowerCase() === 'null') {
    return { column, operator: 'is null', negated };
  }
  const comparison = comparisonOperators.find((candidate) => candidate === operator);
  if (!comparison || value === undefined) throw invalidFilter(expression);
  return { column, operator: comparison, value, negated };
}

/** An unknown column is refused as PostgreSQL would refuse it. */
function knownColumn(name: string): BookingTableColumn {
  const column = bookingTableColumns.find((candidate) => candidate === name);
  if (!column) throw columnDoesNotExist(name);
  return column;
}
