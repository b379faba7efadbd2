import { Col, Form, Input, InputNumber, Row } from 'antd';
import { LIMITS, MSG } from '@vigil/contracts';

/** The tenant form's values (docs/product.md "Validation"). */
export interface TenantFormValues {
  name: string;
  contactName: string;
  phone: string;
  email: string;
  address: string;
  goalScore: number;
}

export const tenantFormDefaults: Partial<TenantFormValues> = { goalScore: LIMITS.goalScoreDefault };

const required = (message: string) => [{ required: true, whitespace: true, message }];

/** Trims the text fields before sending. */
export const cleanTenantForm = (v: TenantFormValues): TenantFormValues => ({
  name: v.name.trim(),
  contactName: v.contactName.trim(),
  phone: v.phone.trim(),
  email: v.email.trim(),
  address: v.address.trim(),
  goalScore: Number(v.goalScore),
});

/** Fields of the tenant form, each with its 'Please input ...' message; put inside an antd Form. */
export function TenantFormFields({ disabled = false }: { disabled?: boolean }) {
  return (
    <Row gutter={16}>
      <Col xs={24} md={12}>
        <Form.Item label="Tenant Name" name="name" rules={required(MSG.tenantName)}>
          <Input disabled={disabled} autoComplete="organization" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item label="Contact Person" name="contactName" rules={required(MSG.contactName)}>
          <Input disabled={disabled} autoComplete="name" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item label="Phone" name="phone" rules={required(MSG.tenantPhone)}>
          <Input disabled={disabled} type="tel" autoComplete="tel" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item label="Email" name="email" rules={required(MSG.tenantEmail)}>
          <Input disabled={disabled} type="email" autoComplete="email" />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <Form.Item label="Address" name="address" rules={required(MSG.address)}>
          <Input.TextArea disabled={disabled} autoSize={{ minRows: 2, maxRows: 4 }} autoComplete="street-address" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item label="Reliability Score Goal" name="goalScore" rules={[{ required: true, message: MSG.goalScore }]}>
          <InputNumber disabled={disabled} min={0} max={100} step={1} suffix="%" style={{ width: '100%' }} />
        </Form.Item>
      </Col>
    </Row>
  );
}
