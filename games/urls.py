from django.urls import path

from games import views

# A plain list: game, lobby and other routes are appended below.
urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("rules/fragment/", views.rules_fragment, name="rules-fragment"),
]
