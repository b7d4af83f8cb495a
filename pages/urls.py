from django.urls import path

from pages import views
from pages.health import health
from pages.jsi18n import page_catalogue

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("health/", health, name="health"),
    path("jsi18n/<slug:page>/", page_catalogue, name="javascript-catalog"),
]
