"""Names that look unused to `vulture` (`make lint`) and are used where it cannot look.

Never imported or run. Each name is here for one of the reasons below; a name that is
really unused is deleted, never added here. Conventions every Django, DRF and pytest
module shares (Meta options, `get_queryset`, `test_*`, fixtures...) are in
pyproject.toml's [tool.vulture] instead.
"""

_ = None

# Named in settings or found by the framework by subclassing or by name.
PortalAdminSite  # the admin's default_site (accounts' AppConfig)
ApiAutoSchema  # DEFAULT_SCHEMA_CLASS
api_exception_handler  # EXCEPTION_HANDLER
BearerTokenScheme  # drf-spectacular finds its extensions by subclassing
make_broker_folders  # connected to Celery's on_after_configure signal
when_ready  # gunicorn's server hook, named by gunicorn.conf.py
handler404, handler500, server_error  # the URLconf's error handlers

# Hooks the framework calls by name.
_.db_for_read, _.db_for_write, _.allow_relation, _.allow_migrate  # a database router
obj1, obj2, hints  # a database router's arguments, as Django passes them
_.password_change  # AdminSite
_.validate  # DRF serializers and fields
_.has_permission  # DRF permissions
_.prepare_value, _.valid_value  # Django form fields
_.field_choices  # the admin's list filters
_.as_postgresql  # a database function's SQL on PostgreSQL
_.output_field  # a database function's type
_.send_messages  # an email backend
_.handle_starttag, _.handle_endtag, _.handle_data  # html.parser.HTMLParser

# Arguments a framework signature requires.
auto_schema  # OpenApiAuthenticationExtension.get_security_definition
accepted_media_type, renderer_context  # a DRF renderer's render
memo  # __deepcopy__
model_admin  # RelatedFieldListFilter.field_choices
exitstatus  # pytest_sessionfinish

# Serializer method fields (DRF calls get_<field>) and filters (django-filter calls the
# method a filter names).
_.get_active, _.get_change, _.get_live, _.get_not_live_reasons, _.get_age_seconds
_.get_files, _.get_progress, _.get_requested_by
_.filter_opened, _.filter_status
_.get_software, _.filter_change  # the game software's name; the installation log's change

# Declared fields: a serializer's, a filter set's or a model's, read by the framework from
# the class (a model field named by the API and the pages only).
takes_dark, brings_live, not_live_reasons, house_edge_percent, artwork_url
api_action, api_object_type, api_object_id, api_holder, api_offering
opened_at, status_changed_at, ledger_entry, currency, age_seconds, outcome_colour
claimed_at, sent_at, digest_pending, request_fingerprint, parameters_key, queued_at
no_activity, row_count, win_sd, expected_hold, software_versions, chi_square_alarm
submit, request_changes  # a workflow viewset's actions, made by portal.api.workflow
registered_at, lifted_at, recorded_by, list_entry, added_by, removal_confirmed_by
DOCUMENT_IMAGE  # a way of verifying an identity, offered by the form's choices
in_force_id  # the terms in force, compared whole by the round's read and its test
software_digest  # a serializer's field: the game software's digest

# Read by templates.
confirm, danger  # a workflow step's button
artwork_alt, artwork_is_image, wheel_error  # a layout's diff
missing_layouts, missing_paytables  # what an offering still needs
runs_tables  # whether a record kind's versions run tables (a holder's terms do not)
approve_fields, title_hidden, effective_text, label_x, label_y
_.odds_fields, _.submission_fields, _.record_fields  # a form's field groups
_.parameter_words  # a report run's parameters in words

# Settings a test or benchmark overrides for its run.
_.EMAIL_BACKEND, _.PASSWORD_HASHERS, _.TIME_ZONE
_.raise_request_exception  # the test client's

# Test helpers found by name: fixtures asked for their effect, a fixture world's builder
# (called by the kind it builds), a stand-in email backend.
two_factor, mixed, draft_offering, admin_formats, email_messages
requests_on_the_test_connection
_.rules_submissions
RefusingBackend

# Read by templates and the admin, which vulture does not read: a table's suspension (who,
# since when), a complaint's answerer, a note's and a finding's dates.
_.suspended_at, _.answered_by, _.written_at, _.found_at
# Read by DRF: a serializer's method fields (``get_<field>``).
_.get_rounds, _.get_movements, _.get_answer
# Read by the settings module, which vulture is not given.
env_int_list
task_routes, worker_queues  # portal.core.queues: the Celery routes and the worker's queues
# DRF's Meta option naming a serializer's list serializer; a page of runs, read by templates.
_.list_serializer_class, _.corrected_since
# Read by the decision panel's template: the refusal that named the wagers to acknowledge.
_.zero_edges_errors
# Read by the software approval's page and its API: who withdrew it, when and why.
_.withdrawn_by, _.withdrawn_at, _.withdrawal_reason
# Read by DRF: whether an approval is of the software this server runs.
_.get_running
# Read by zipfile when it writes an entry: the filing package says Unix, whatever the host,
# so that its entries' permissions (and its bytes) are the same everywhere.
_.create_system
