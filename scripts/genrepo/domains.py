"""The business domains of the generated repository: their events, dimension tables,
versioned tables, categorical values and Java functions."""

# The business domains. Each has one stream of events (the fact), dimension tables that its
# events point to (looked up by key), one versioned table (joined as of event time), and the
# values its categorical columns take.
#
# A field's role says what a query may do with it:
#   key      the event's identifier (deduplication, primary keys of upsert sinks)
#   cat      a low-cardinality STRING (GROUP BY, filters)
#   measure  a number (SUM, MAX, MIN; AVG only for non-DECIMAL types)
#   ref      the key of a dimension table (lookup joins)
#   ver      the key of the versioned table (event-time temporal joins)
#   text     free text (arguments of functions)
#   id       another identifier (COUNT DISTINCT)


class Field:
    """A field of a domain's events: name, Flink type, role (above), and for `ref` the name of
    the dimension it points to."""

    def __init__(self, name, type_, role, ref=None):
        self.name, self.type, self.role, self.ref = name, type_, role, ref


class Dim:
    """A dimension table: a key and attributes, read by lookup joins."""

    def __init__(self, name, key, key_type, attrs):
        self.name, self.key, self.key_type, self.attrs = name, key, key_type, attrs


class Versioned:
    """A versioned table: one row per key and validity time, read by temporal joins."""

    def __init__(self, name, key, key_type, attrs, time):
        self.name, self.key, self.key_type, self.attrs, self.time = name, key, key_type, attrs, time


class Domain:
    """A business domain: its events (`stem` names the stream, `time` its event time), the
    values of categorical fields, dimensions, the versioned table, and the team's Java functions
    as (name, class, arguments, output column, output type)."""

    def __init__(self, name, team, stem, time, fields, values, dims, versioned, udfs):
        self.name, self.team, self.stem, self.time = name, team, stem, time
        self.fields, self.values, self.dims, self.versioned = fields, values, dims, versioned
        self.udfs = udfs

    def of(self, role):
        return [f for f in self.fields if f.role == role]

    def key(self):
        return self.of("key")[0]

    def dim(self, name):
        return next(d for d in self.dims if d.name == name)

    def subset(self, rng, need, keep=0.1):
        """The same domain with fewer fields, as a job that declares only the columns of the
        topic it reads sees it: the key, the first field of each role in `need`, the fields
        named in `need`, and each other field with probability `keep`."""
        first = {}
        for f in self.fields:
            first.setdefault(f.role, f)
        fields = [f for f in self.fields
                  if f.role == "key" or (f.role in need and first[f.role] is f) or f.name in need
                  or rng.random() < keep]
        dims = [Dim(x.name, x.key, x.key_type, x.attrs[:rng.randint(1, len(x.attrs))]) for x in self.dims]
        return Domain(self.name, self.team, self.stem, self.time, fields, self.values, dims,
                      self.versioned, self.udfs)


F = Field
DOMAINS = [
    Domain(
        "orders", "checkout", "orders", "order_time",
        [F("order_id", "BIGINT", "key"), F("customer_id", "BIGINT", "ref", "customers"),
         F("product_id", "BIGINT", "ref", "products"), F("quantity", "INT", "measure"),
         F("unit_price", "DECIMAL(10, 2)", "measure"), F("currency", "STRING", "ver"),
         F("order_status", "STRING", "cat"), F("sales_channel", "STRING", "cat"),
         F("coupon_code", "STRING", "text")],
        {"order_status": ["CREATED", "PAID", "SHIPPED", "CANCELLED", "REFUNDED"],
         "sales_channel": ["web", "ios", "android", "marketplace", "store"]},
        [Dim("customers", "customer_id", "BIGINT",
             [("full_name", "STRING"), ("segment", "STRING"), ("country_code", "STRING"),
              ("signup_date", "DATE")]),
         Dim("products", "product_id", "BIGINT",
             [("title", "STRING"), ("category", "STRING"), ("brand", "STRING"),
              ("list_price", "DECIMAL(10, 2)")])],
        Versioned("fx_rates", "currency", "STRING", [("rate_to_eur", "DECIMAL(18, 6)")], "rate_time"),
        [("to_eur_cents", "com.acme.flink.udf.money.ToEurCents", "unit_price, currency", "unit_price_eur_cents", "BIGINT"),
         ("normalize_coupon", "com.acme.flink.udf.text.NormalizeCode", "coupon_code", "coupon_normalized", "STRING")],
    ),
    Domain(
        "payments", "payments", "payments", "paid_at",
        [F("payment_id", "STRING", "key"), F("order_id", "BIGINT", "id"),
         F("merchant_id", "BIGINT", "ref", "merchants"), F("pay_method", "STRING", "cat"),
         F("amount", "DECIMAL(12, 2)", "measure"), F("fee_amount", "DECIMAL(12, 2)", "measure"),
         F("currency", "STRING", "ver"), F("payment_status", "STRING", "cat"),
         F("psp_reference", "STRING", "text")],
        {"pay_method": ["card", "paypal", "sepa", "ideal", "klarna", "apple_pay"],
         "payment_status": ["AUTHORIZED", "CAPTURED", "DECLINED", "REFUNDED"]},
        [Dim("merchants", "merchant_id", "BIGINT",
             [("merchant_name", "STRING"), ("mcc", "STRING"), ("country_code", "STRING"),
              ("risk_tier", "STRING")])],
        Versioned("fx_rates", "currency", "STRING", [("rate_to_eur", "DECIMAL(18, 6)")], "rate_time"),
        [("mask_reference", "com.acme.flink.udf.privacy.MaskReference", "psp_reference", "psp_reference_masked", "STRING")],
    ),
    Domain(
        "clickstream", "web-analytics", "page_views", "view_time",
        [F("view_id", "STRING", "key"), F("user_id", "BIGINT", "ref", "web_users"),
         F("session_id", "STRING", "id"), F("page_url", "STRING", "ver"),
         F("referrer", "STRING", "text"), F("device_type", "STRING", "cat"),
         F("country_code", "STRING", "cat"), F("dwell_ms", "INT", "measure"),
         F("scroll_depth", "DOUBLE", "measure")],
        {"device_type": ["desktop", "mobile", "tablet", "tv"],
         "country_code": ["DE", "FR", "NL", "ES", "IT", "PL", "SE"]},
        [Dim("web_users", "user_id", "BIGINT",
             [("user_segment", "STRING"), ("preferred_locale", "STRING"),
              ("is_employee", "BOOLEAN")])],
        Versioned("page_owners", "page_url", "STRING",
                  [("page_group", "STRING"), ("owner_team", "STRING")], "valid_from"),
        [("referrer_host", "com.acme.flink.udf.web.HostOf", "referrer", "referrer_host", "STRING"),
         ("url_path", "com.acme.flink.udf.web.UrlPath", "page_url", "page_path", "STRING")],
    ),
    Domain(
        "inventory", "supply-chain", "stock_moves", "moved_at",
        [F("movement_id", "BIGINT", "key"), F("sku", "STRING", "ref", "items"),
         F("warehouse_id", "INT", "ref", "warehouses"), F("qty_delta", "INT", "measure"),
         F("movement_reason", "STRING", "cat"), F("operator_id", "STRING", "id"),
         F("unit_cost", "DECIMAL(10, 2)", "measure"), F("cost_center", "STRING", "ver")],
        {"movement_reason": ["RECEIPT", "PICK", "RETURN", "ADJUSTMENT", "TRANSFER"]},
        [Dim("items", "sku", "STRING",
             [("item_name", "STRING"), ("item_category", "STRING"), ("pack_size", "INT")]),
         Dim("warehouses", "warehouse_id", "INT",
             [("city", "STRING"), ("region", "STRING"), ("capacity_units", "INT")])],
        Versioned("cost_centers", "cost_center", "STRING",
                  [("budget_owner", "STRING"), ("monthly_budget", "DECIMAL(14, 2)")], "changed_at"),
        [("sku_family", "com.acme.flink.udf.catalog.SkuFamily", "sku", "sku_family", "STRING")],
    ),
    Domain(
        "shipping", "logistics", "shipments", "status_time",
        [F("shipment_id", "STRING", "key"), F("order_id", "BIGINT", "id"),
         F("carrier_code", "STRING", "ref", "carriers"), F("ship_status", "STRING", "cat"),
         F("dest_country", "STRING", "cat"), F("weight_kg", "DOUBLE", "measure"),
         F("parcel_count", "INT", "measure"), F("service_level", "STRING", "ver"),
         F("tracking_note", "STRING", "text")],
        {"ship_status": ["LABEL_CREATED", "PICKED_UP", "IN_TRANSIT", "DELIVERED", "RETURNED"],
         "dest_country": ["DE", "AT", "CH", "FR", "BE", "NL"]},
        [Dim("carriers", "carrier_code", "STRING",
             [("carrier_name", "STRING"), ("carrier_tier", "STRING"), ("sla_hours", "INT")])],
        Versioned("service_levels", "service_level", "STRING",
                  [("promised_hours", "INT"), ("surcharge", "DECIMAL(8, 2)")], "effective_from"),
        [("geo_zone", "com.acme.flink.udf.geo.ZoneOf", "dest_country, service_level", "delivery_zone", "STRING")],
    ),
    Domain(
        "accounts", "identity", "account_events", "updated_at",
        [F("account_id", "BIGINT", "key"), F("email", "STRING", "text"),
         F("plan_code", "STRING", "ref", "plans"), F("country_code", "STRING", "cat"),
         F("signup_source", "STRING", "cat"), F("login_count", "INT", "measure"),
         F("credit_balance", "DECIMAL(12, 2)", "measure"), F("tier_code", "STRING", "ver")],
        {"country_code": ["DE", "FR", "NL", "US", "GB", "JP"],
         "signup_source": ["organic", "referral", "paid_search", "partner"]},
        [Dim("plans", "plan_code", "STRING",
             [("plan_name", "STRING"), ("monthly_fee", "DECIMAL(8, 2)"), ("seat_limit", "INT")])],
        Versioned("tier_rules", "tier_code", "STRING",
                  [("discount_pct", "DOUBLE"), ("support_level", "STRING")], "rule_time"),
        [("mask_email", "com.acme.flink.udf.privacy.MaskEmail", "email", "email_masked", "STRING"),
         ("email_domain", "com.acme.flink.udf.text.EmailDomain", "email", "email_domain", "STRING")],
    ),
    Domain(
        "ads", "ads-platform", "impressions", "served_at",
        [F("impression_id", "STRING", "key"), F("campaign_id", "BIGINT", "ref", "campaigns"),
         F("ad_slot", "STRING", "cat"), F("viewer_id", "BIGINT", "id"),
         F("cost_micros", "BIGINT", "measure"), F("bid_micros", "BIGINT", "measure"),
         F("geo_country", "STRING", "cat"), F("exchange_code", "STRING", "ver")],
        {"ad_slot": ["top_banner", "sidebar", "in_feed", "interstitial", "video_pre"],
         "geo_country": ["DE", "FR", "US", "BR", "IN", "JP"]},
        [Dim("campaigns", "campaign_id", "BIGINT",
             [("advertiser", "STRING"), ("objective", "STRING"), ("daily_budget", "DECIMAL(12, 2)")])],
        Versioned("exchange_fees", "exchange_code", "STRING",
                  [("fee_pct", "DOUBLE")], "fee_time"),
        [("bucket_bid", "com.acme.flink.udf.ads.BucketBid", "bid_micros", "bid_bucket", "INT")],
    ),
    Domain(
        "iot", "devices", "readings", "reading_time",
        [F("reading_id", "BIGINT", "key"), F("device_id", "STRING", "ref", "devices"),
         F("site_code", "STRING", "cat"), F("temperature_c", "DOUBLE", "measure"),
         F("humidity_pct", "DOUBLE", "measure"), F("battery_pct", "INT", "measure"),
         F("firmware_version", "STRING", "ver"), F("reading_quality", "STRING", "cat")],
        {"site_code": ["ams-1", "ber-2", "par-1", "mad-3", "waw-1"],
         "reading_quality": ["GOOD", "SUSPECT", "BAD"]},
        [Dim("devices", "device_id", "STRING",
             [("device_model", "STRING"), ("installed_on", "DATE"), ("site_code", "STRING")])],
        Versioned("firmware_limits", "firmware_version", "STRING",
                  [("max_temp_c", "DOUBLE"), ("min_battery_pct", "INT")], "released_at"),
        [("celsius_to_f", "com.acme.flink.udf.iot.CelsiusToFahrenheit", "temperature_c", "temperature_f", "DOUBLE")],
    ),
    Domain(
        "risk", "fraud-detection", "card_txns", "txn_time",
        [F("txn_id", "STRING", "key"), F("card_id", "BIGINT", "ref", "cards"),
         F("merchant_ref", "BIGINT", "id"), F("amount", "DECIMAL(12, 2)", "measure"),
         F("currency", "STRING", "ver"), F("entry_mode", "STRING", "cat"),
         F("mcc", "STRING", "cat"), F("risk_score", "DOUBLE", "measure")],
        {"entry_mode": ["chip", "contactless", "ecommerce", "manual"],
         "mcc": ["5411", "5812", "5999", "4829", "7995"]},
        [Dim("cards", "card_id", "BIGINT",
             [("card_type", "STRING"), ("issuer_country", "STRING"), ("holder_segment", "STRING")])],
        Versioned("fx_rates", "currency", "STRING", [("rate_to_eur", "DECIMAL(18, 6)")], "rate_time"),
        [("velocity_score", "com.acme.flink.udf.risk.VelocityScore", "card_id, amount, txn_time", "velocity", "DOUBLE"),
         ("hash_card", "com.acme.flink.udf.privacy.HashId", "card_id", "card_hash", "STRING")],
    ),
    Domain(
        "billing", "finance", "invoices", "issued_at",
        [F("invoice_id", "BIGINT", "key"), F("account_id", "BIGINT", "ref", "billing_accounts"),
         F("amount_due", "DECIMAL(12, 2)", "measure"), F("tax_amount", "DECIMAL(12, 2)", "measure"),
         F("currency", "STRING", "ver"), F("invoice_status", "STRING", "cat"),
         F("billing_cycle", "STRING", "cat"), F("po_number", "STRING", "text")],
        {"invoice_status": ["DRAFT", "OPEN", "PAID", "VOID", "OVERDUE"],
         "billing_cycle": ["monthly", "quarterly", "yearly"]},
        [Dim("billing_accounts", "account_id", "BIGINT",
             [("legal_name", "STRING"), ("vat_id", "STRING"), ("payment_terms_days", "INT")])],
        Versioned("fx_rates", "currency", "STRING", [("rate_to_eur", "DECIMAL(18, 6)")], "rate_time"),
        [("tax_region", "com.acme.flink.udf.finance.TaxRegion", "account_id", "tax_region", "STRING")],
    ),
    Domain(
        "search", "search-relevance", "searches", "searched_at",
        [F("query_id", "STRING", "key"), F("user_id", "BIGINT", "ref", "searchers"),
         F("query_text", "STRING", "text"), F("result_count", "INT", "measure"),
         F("latency_ms", "INT", "measure"), F("search_vertical", "STRING", "cat"),
         F("ranker_version", "STRING", "ver"), F("clicked_rank", "INT", "measure")],
        {"search_vertical": ["products", "help", "stores", "recipes"]},
        [Dim("searchers", "user_id", "BIGINT",
             [("searcher_locale", "STRING"), ("is_logged_in", "BOOLEAN")])],
        Versioned("ranker_releases", "ranker_version", "STRING",
                  [("model_family", "STRING"), ("traffic_pct", "INT")], "released_at"),
        [("normalize_query", "com.acme.flink.udf.search.NormalizeQuery", "query_text", "query_normalized", "STRING")],
    ),
    Domain(
        "support", "customer-care", "tickets", "event_time",
        [F("ticket_id", "BIGINT", "key"), F("customer_id", "BIGINT", "ref", "customers"),
         F("queue_name", "STRING", "cat"), F("ticket_priority", "STRING", "cat"),
         F("agent_id", "STRING", "id"), F("response_minutes", "INT", "measure"),
         F("csat_score", "DOUBLE", "measure"), F("sla_policy", "STRING", "ver"),
         F("subject_line", "STRING", "text")],
        {"queue_name": ["billing", "delivery", "returns", "account", "general"],
         "ticket_priority": ["P1", "P2", "P3", "P4"]},
        [Dim("customers", "customer_id", "BIGINT",
             [("full_name", "STRING"), ("segment", "STRING"), ("country_code", "STRING")])],
        Versioned("sla_policies", "sla_policy", "STRING",
                  [("first_response_minutes", "INT")], "policy_time"),
        [("ticket_language", "com.acme.flink.udf.text.DetectLanguage", "subject_line", "ticket_language", "STRING")],
    ),
]
