import { Button, Card, Form, Select } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { REPORT_PERIODS, REPORT_TYPES } from '@vigil/contracts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { PortalSelect } from '../../../components/PortalSelect.tsx';
import { useAllPortalsQuery } from '../../../lib/api/portalOptionsApi.ts';
import type { PreviewState } from './ReportDetailPage.tsx';

interface CreateForm {
  customerId?: number;
  period: number;
  config: number[];
}

/**
 * Report creation (docs/web-pages.md "Pages"): Customer Name, Interval (default This Week), Report Type
 * (default all three). View Report opens reports/-1 with the configuration (unsaved).
 */
export default function ReportCreatePage() {
  const location = useLocation();
  const navigate = useNavigate();
  const from = location.state as { customerId?: number; customerName?: string } | null;
  const [form] = Form.useForm<CreateForm>();
  const portals = useAllPortalsQuery();

  const view = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return; // the messages show under the fields
    const customerName = portals.data?.data.list.find((p) => p.id === v.customerId)?.name ?? from?.customerName ?? '';
    const state: PreviewState = { customerId: v.customerId!, customerName, period: v.period, config: [...v.config].sort() };
    void navigate('/dashboards/reports/-1', { state });
  };

  return (
    <>
      <PageHeader title="Create Report" />
      <Card style={{ maxWidth: 640 }}>
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ customerId: from?.customerId, period: 0, config: [0, 1, 2] }}
          onFinish={view}
        >
          <Form.Item label="Customer Name" name="customerId" rules={[{ required: true, message: 'Please select a customer' }]}>
            <PortalSelect />
          </Form.Item>
          <Form.Item label="Interval" name="period">
            <Select options={REPORT_PERIODS.map((label, value) => ({ value, label }))} />
          </Form.Item>
          <Form.Item
            label="Report Type"
            name="config"
            rules={[{ required: true, type: 'array', min: 1, message: 'Please select at least one report type' }]}
          >
            <Select mode="multiple" options={REPORT_TYPES.map((label, value) => ({ value, label }))} />
          </Form.Item>
          <Button type="primary" htmlType="submit">
            View Report
          </Button>
        </Form>
      </Card>
    </>
  );
}
