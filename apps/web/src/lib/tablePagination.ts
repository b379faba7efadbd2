import type { TablePaginationConfig } from 'antd';

/** antd Table pagination bound to URL list state (page, pageSize) and the list's total count. */
export function tablePagination(
  state: { page: number; pageSize: number },
  total: number | undefined,
  options: { quickJumper?: boolean; sizeChanger?: boolean; hideOnSinglePage?: boolean } = {},
): TablePaginationConfig {
  return {
    current: state.page,
    pageSize: state.pageSize,
    total: total ?? 0,
    showQuickJumper: options.quickJumper ?? true,
    showSizeChanger: options.sizeChanger ?? true,
    hideOnSinglePage: options.hideOnSinglePage ?? false,
    showTotal: (n) => `${n} total`,
  };
}
