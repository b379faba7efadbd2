import { ShopOutlined } from '@ant-design/icons';
import { Button, Card, Col, Descriptions, Row, Select, Skeleton } from 'antd';
import { useLocation, useNavigate, useParams } from 'react-router';
import { CASE_STATUSES } from '@vigil/contracts';
import { DetailLoadError } from '../../../components/DetailLoadError.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { notify } from '../../../lib/notify.ts';
import { messageOf } from '../../../lib/errors.ts';
import { useListState } from '../../../lib/useListState.ts';
import { DevicesTable } from '../../../components/DevicesTable.tsx';
import { useCaseByIdQuery, useCaseDevicesQuery, useUpdateCaseMutation } from '../api.ts';
import { portalLink, type CaseLinkState } from '../../../lib/links.ts';
import { AccessCommandButton } from '../components/AccessCommandButton.tsx';
import { CommentsSection } from '../components/CommentsSection.tsx';
import { useCan } from '../../../lib/session/permissions.ts';

/** The status picker (docs/product.md "Codes and states"): options 1..5 with the status labels; value = caseType + 1. */
export const STATUS_OPTIONS = CASE_STATUSES.map((label, code) => ({ value: code + 1, label }));

/** Case detail (docs/web-pages.md "Pages"): title = customer name; status saved at once; devices; comments. */
export default function CaseDetailPage() {
  const id = Number(useParams().id);
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as Partial<CaseLinkState> | null;
  const caseQuery = useCaseByIdQuery(id);
  const list = useListState({ prefix: 'dev.', pageSize: 8 });
  const devices = useCaseDevicesQuery({ id, list: list.query });
  const [update, updating] = useUpdateCaseMutation();
  const canChangeStatus = useCan('cases:write');
  const c = caseQuery.data?.data;
  const customerName = c?.customerName ?? state?.customerName ?? `Case #${id}`;
  const customerId = c?.customerId ?? state?.customerId;

  if (caseQuery.error) {
    return (
      <DetailLoadError
        title={customerName}
        error={caseQuery.error}
        onRetry={caseQuery.refetch}
        notFoundTitle="Case not found"
        back={{ to: '/dashboards/cases', label: 'Back to Cases' }}
      />
    );
  }

  const changeStatus = async (picked: number) => {
    const result = await update({ id, caseType: picked - 1 });
    if ('error' in result && result.error) notify.error(messageOf(result.error) || 'error occured');
    else notify.success(`Status changed to ${CASE_STATUSES[picked - 1]}.`);
  };

  return (
    <>
      <PageHeader
        title={customerName}
        lastCrumb={`Case #${id}`}
        extra={
          <>
            <AccessCommandButton />
            <Button
              icon={<ShopOutlined />}
              disabled={!customerId}
              onClick={() => {
                const link = portalLink({ customerId: customerId!, customerName });
                void navigate(link.to, { state: link.state });
              }}
            >
              View Portal
            </Button>
          </>
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card title={`Case #${id}`} style={{ marginBottom: 16 }}>
            {caseQuery.isLoading || !c ? (
              <Skeleton active />
            ) : (
              <Descriptions column={{ xs: 1, sm: 2 }} size="small">
                <Descriptions.Item label="Status">
                  {canChangeStatus ? (
                    <Select
                      aria-label="Case status"
                      style={{ minWidth: 200 }}
                      value={c.caseType + 1}
                      options={STATUS_OPTIONS}
                      loading={updating.isLoading}
                      onChange={changeStatus}
                    />
                  ) : (
                    <span data-testid="case-status">{CASE_STATUSES[c.caseType] ?? 'Unknown'}</span>
                  )}
                </Descriptions.Item>
                <Descriptions.Item label="Offline Devices">{c.offlineCount}</Descriptions.Item>
                <Descriptions.Item label="Date Created">{formatDate(c.createdAt)}</Descriptions.Item>
                <Descriptions.Item label="Completed">{formatDate(c.completedAt)}</Descriptions.Item>
              </Descriptions>
            )}
          </Card>
          <Card title="Devices">
            <DevicesTable list={list} result={devices} emptyText="This case holds no devices." />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <CommentsSection caseId={id} />
        </Col>
      </Row>
    </>
  );
}
