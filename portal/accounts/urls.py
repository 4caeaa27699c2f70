from django.urls import path

from portal.accounts import views

app_name = "accounts"

urlpatterns = [
    path("tokens/", views.api_tokens, name="api-tokens"),
    path("tokens/<int:pk>/revoke/", views.api_token_revoke_page, name="api-token-revoke"),
]
